package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScontrolJobsTest {

    /** A component of a heterogeneous job as Slurm 22.05 writes it (shortened). */
    private static final String COMPONENT = "JobId=8 HetJobId=7 HetJobOffset=1 JobName=paddlejobs.default.fit-a-line"
            + " HetJobIdSet=7-8 UserId=root(0) JobState=FAILED Reason=NonZeroExitCode Dependency=(null)"
            + " ExitCode=3:0 RunTime=00:00:01 TimeLimit=00:05:00 StartTime=2026-12-01T08:33:55"
            + " EndTime=Unknown NodeList=n[2-3] Command=(null) WorkDir=/shared/a dir/work";

    @Test
    void aComponentLineGivesItsJobItsStateReasonExitCodeNodesAndLimit() {
        SlurmJobInfo info = ScontrolJobs.parse(COMPONENT);

        assertThat(info.jobId()).isEqualTo(8);
        assertThat(info.submittedId()).isEqualTo(7);
        assertThat(info.hetJobOffset()).isEqualTo(1);
        assertThat(info.name()).isEqualTo("paddlejobs.default.fit-a-line");
        assertThat(info.state()).isEqualTo("FAILED");
        assertThat(info.reason()).isEqualTo("NonZeroExitCode");
        assertThat(info.exitCode()).isEqualTo(3);
        assertThat(info.signal()).isZero();
        assertThat(info.nodes()).isEqualTo("n[2-3]");
        assertThat(info.timeLimitMinutes()).isEqualTo(5);
        assertThat(info.startTime()).isNotNull();
        assertThat(info.endTime()).as("Unknown is no time").isNull();
        assertThat(info.isFinal()).isTrue();
    }

    @Test
    void aPlainJobIsSubmittedUnderItsOwnId() {
        SlurmJobInfo info = ScontrolJobs.parse("JobId=12 JobName=x JobState=PENDING Reason=Resources ExitCode=0:0");

        assertThat(info.submittedId()).isEqualTo(12);
        assertThat(info.isFinal()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"UNLIMITED, 0", "00:01:00, 1", "00:00:30, 1", "1-02:00:00, 1560", "5, 5", "Partition_Limit, 0"})
    void timeLimitsAreCountedInWholeMinutes(String text, long minutes) {
        assertThat(ScontrolJobs.minutes(text)).isEqualTo(minutes);
    }
}
