package io.paddlejobs.backend.slurm.client;

import io.paddlejobs.backend.slurm.SlurmChoices;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SlurmRestDialectTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final BatchJob JOB = new BatchJob("paddlejobs.default.a", Path.of("/shared/a"), Path.of("/shared/a/out"),
            List.of(new BatchJob.Component(1, 1, 256, 0), new BatchJob.Component(2, 3, 512, 1)), 5, 0,
            new SlurmChoices("gpu", "acct", "high"), "exit 0\n");

    @Test
    void fromV40EveryComponentSaysItsNumbersAsSetObjectsAndOnlyTheFirstCarriesTheScript() {
        JsonNode body = SlurmRestDialect.of("v0.0.45").submitBody(JSON, JOB, "/usr/bin:/bin");

        JsonNode first = body.path("jobs").get(0);
        JsonNode second = body.path("jobs").get(1);
        assertThat(body.has("script")).isFalse();
        assertThat(first.path("script").asString()).isEqualTo("#!/bin/bash\nexit 0\n");
        assertThat(second.has("script")).isFalse();
        assertThat(second.path("environment").toString()).isEqualTo("[\"PATH=/usr/bin:/bin\"]");
        assertThat(second.path("memory_per_cpu").toString()).isEqualTo("{\"set\":true,\"number\":512}");
        assertThat(second.path("time_limit").toString()).isEqualTo("{\"set\":true,\"number\":5}");
        assertThat(second.path("tres_per_task").asString()).isEqualTo("gres/gpu:1");
        assertThat(first.has("tres_per_task")).isFalse();
        assertThat(second.path("current_working_directory").asString()).as("each component needs its own").isEqualTo("/shared/a");
        assertThat(second.path("account").asString()).isEqualTo("acct");
        assertThat(second.path("partition").asString()).isEqualTo("gpu");
        assertThat(second.path("qos").asString()).isEqualTo("high");
        assertThat(second.path("tasks").asInt()).isEqualTo(2);
        assertThat(second.path("cpus_per_task").asInt()).isEqualTo(3);
    }

    @Test
    void fromV40AJobOfOneComponentIsAJobNotAList() {
        BatchJob one = new BatchJob(JOB.name(), JOB.workDir(), JOB.output(), JOB.components().subList(0, 1), 0, 0, SlurmChoices.DEFAULTS, "true\n");

        JsonNode body = SlurmRestDialect.of("v0.0.42").submitBody(JSON, one, "/bin");

        assertThat(body.has("jobs")).isFalse();
        assertThat(body.path("job").path("script").asString()).isEqualTo("#!/bin/bash\ntrue\n");
        assertThat(body.path("job").has("time_limit")).as("no limit of the service's own").isFalse();
    }

    @Test
    void v38KeepsPlainNumbersTheEnvironmentObjectAndTheScriptBesideTheJobs() {
        JsonNode body = SlurmRestDialect.of("v0.0.38").submitBody(JSON, JOB, "/bin");

        assertThat(body.path("script").asString()).isEqualTo("#!/bin/bash\nexit 0\n");
        JsonNode second = body.path("jobs").get(1);
        assertThat(second.path("environment").toString()).isEqualTo("{\"PATH\":\"/bin\"}");
        assertThat(second.path("memory_per_cpu").asLong()).isEqualTo(512);
        assertThat(second.path("time_limit").asLong()).isEqualTo(5);
        assertThat(second.path("gpus_per_task").asString()).isEqualTo("1");
        assertThat(second.path("account").asString()).isEqualTo("acct");
        assertThat(second.path("partition").asString()).isEqualTo("gpu");
        assertThat(second.path("qos").asString()).isEqualTo("high");
    }

    /** A component as Slurm 26.05's slurmrestd lists it (v0.0.45, shortened). */
    @Test
    void aV45ComponentGivesItsJobItsStateReasonExitCodeNodesAndLimit() {
        JsonNode entry = JSON.readTree("""
                {"job_id": 5, "het_job_id": {"set": true, "infinite": false, "number": 4},
                 "het_job_offset": {"set": true, "infinite": false, "number": 1}, "name": "paddlejobs.default.fit-a-line",
                 "job_state": ["FAILED"], "state_reason": "NonZeroExitCode",
                 "exit_code": {"status": ["ERROR"], "return_code": {"set": true, "infinite": false, "number": 3},
                               "signal": {"id": {"set": false, "infinite": false, "number": 0}, "name": ""}},
                 "nodes": "n2", "time_limit": {"set": true, "infinite": false, "number": 5},
                 "start_time": {"set": true, "infinite": false, "number": 1796177937},
                 "end_time": {"set": true, "infinite": false, "number": 0}}
                """);

        SlurmJobInfo info = SlurmRestDialect.of("v0.0.45").job(entry);

        assertThat(info).isEqualTo(new SlurmJobInfo(5, 4, 1, "paddlejobs.default.fit-a-line", "FAILED", "NonZeroExitCode",
                3, 0, "n2", 5, Instant.ofEpochSecond(1796177937), null));
    }

    @Test
    void aSignalledV45JobReportsItsSignalAndAnUnsetReturnCodeAsZero() {
        JsonNode entry = JSON.readTree("""
                {"job_id": 1, "job_state": ["CANCELLED"], "exit_code": {"status": ["SIGNALED"],
                 "return_code": {"set": false, "number": 0}, "signal": {"id": {"set": true, "number": 9}, "name": "KILL"}},
                 "time_limit": {"set": false, "infinite": true, "number": 0}}
                """);

        SlurmJobInfo info = SlurmRestDialect.of("v0.0.45").job(entry);

        assertThat(info.exitCode()).isZero();
        assertThat(info.signal()).isEqualTo(9);
        assertThat(info.timeLimitMinutes()).as("infinite").isZero();
        assertThat(info.submittedId()).as("not heterogeneous").isEqualTo(1);
    }

    @Test
    void aStateListReadsAsTheOneWordScontrolShows() {
        assertThat(SlurmRestDialect.V40.state(JSON.readTree("[\"CANCELLED\", \"COMPLETING\"]"))).isEqualTo("COMPLETING");
        assertThat(SlurmRestDialect.V40.state(JSON.readTree("[\"PENDING\", \"REQUEUED\"]"))).isEqualTo("REQUEUED");
        assertThat(SlurmRestDialect.V40.state(JSON.readTree("[\"RUNNING\"]"))).isEqualTo("RUNNING");
        assertThat(SlurmRestDialect.V40.state(JSON.readTree("[]"))).isEqualTo("UNKNOWN");
    }
}
