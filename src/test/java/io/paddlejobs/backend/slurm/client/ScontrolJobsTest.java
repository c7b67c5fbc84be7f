package io.paddlejobs.backend.slurm.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
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

    /**
     * Slurm gives a job cancelled while it waited a start time (the moment of the cancel), but no nodes: it never
     * ran, and its status has no {@code started_at}. One cancelled on its nodes ran.
     */
    @Test
    void aJobCancelledWhileItWaitedNeverRanThoughItHasAStartTime() {
        SlurmJobInfo waited = ScontrolJobs.parse(COMPONENT.replace("JobState=FAILED", "JobState=CANCELLED")
                .replace("NodeList=n[2-3]", "NodeList=(null)"));
        SlurmJobInfo ran = ScontrolJobs.parse(COMPONENT.replace("JobState=FAILED", "JobState=CANCELLED"));

        assertThat(waited.startTime()).isNotNull();
        assertThat(waited.ran()).isFalse();
        assertThat(ran.ran()).isTrue();
        assertThat(ScontrolJobs.parse(COMPONENT).ran()).isTrue();
        assertThat(ScontrolJobs.parse(COMPONENT.replace("JobState=FAILED", "JobState=PENDING")).ran()).isFalse();
    }

    /** The same component from Slurm 26.05's scontrol (shortened less: its fields in its order). */
    @Test
    void slurm26LinesReadTheSame() {
        SlurmJobInfo info = ScontrolJobs.parse("JobId=5 HetJobId=4 HetJobOffset=1 JobName=paddlejobs.default.fit-a-line"
                + " HetJobIdSet=4-5 UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=1 Nice=0 Account=(null)"
                + " QOS=(null) JobState=FAILED Reason=NonZeroExitCode Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1"
                + " Reboot=0 ExitCode=3:0 RunTime=00:00:00 TimeLimit=00:05:00 TimeMin=N/A SubmitTime=2026-12-02T02:18:57"
                + " StartTime=2026-12-02T02:18:57 EndTime=2026-12-02T02:18:57 Deadline=N/A Partition=debug"
                + " NodeList=n2 BatchHost=n2 NumNodes=1 NumCPUs=2 NumTasks=2 CPUs/Task=1"
                + " SubmitLine=/usr/bin/sbatch --parsable WorkDir=/tmp/w StdErr= StdIn=/dev/null StdOut=/tmp/w/slurm-5.out");

        assertThat(info).extracting(SlurmJobInfo::jobId, SlurmJobInfo::submittedId, SlurmJobInfo::hetJobOffset,
                SlurmJobInfo::state, SlurmJobInfo::reason, SlurmJobInfo::exitCode, SlurmJobInfo::nodes,
                SlurmJobInfo::timeLimitMinutes).containsExactly(5L, 4L, 1, "FAILED", "NonZeroExitCode", 3, "n2", 5L);
        assertThat(info.endTime()).isNotNull();
    }

    /**
     * The Slurm red team's M1 (code reading): any job of the shared Slurm user can submit its own Slurm job
     * named to look like a component of another tenant's job. Its line stays its own: the ids come from
     * before the name only.
     */
    @Test
    @Tag("redteam")
    void aJobNameThatForgesFieldsCannotClaimAnotherJobsId() {
        SlurmJobInfo forged = ScontrolJobs.parse("JobId=99 JobName=paddlejobs.team-a.victim HetJobId=7 HetJobOffset=1"
                + " JobState=FAILED ExitCode=9:0 UserId=root(0) GroupId=root(0) JobState=RUNNING Reason=None"
                + " ExitCode=0:0 NodeList=n1");

        assertThat(forged.jobId()).isEqualTo(99);
        assertThat(forged.submittedId()).as("its own id, not the forged HetJobId").isEqualTo(99);
        assertThat(forged.hetJobOffset()).isZero();
        assertThat(forged.name()).isEqualTo("paddlejobs.team-a.victim");
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
