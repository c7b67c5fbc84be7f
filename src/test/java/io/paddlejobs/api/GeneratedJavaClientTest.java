package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.generated.ApiClient;
import io.paddlejobs.generated.ApiException;
import io.paddlejobs.generated.JSON;
import io.paddlejobs.generated.api.JobsApi;
import io.paddlejobs.generated.model.DryRunView;
import io.paddlejobs.generated.model.FieldError;
import io.paddlejobs.generated.model.JobRequest;
import io.paddlejobs.generated.model.JobStatus;
import io.paddlejobs.generated.model.JobSummary;
import io.paddlejobs.generated.model.JobView;
import io.paddlejobs.generated.model.Problem;
import io.paddlejobs.generated.model.SubmitResult;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The committed contract serves a client generated from it: openapi-generator's Java client
 * (native library), generated at build time from {@code openapi/openapi.yaml} into target/, drives
 * a job's whole life against the running service and reads its errors.
 */
class GeneratedJavaClientTest extends ApiTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    JobsApi jobs;

    @BeforeEach
    void client() {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://127.0.0.1:" + port);
        jobs = new JobsApi(client);
    }

    @Test
    void generatedClientDryRunsSubmitsFollowsListsAndDeletesAJob() throws Exception {
        JobRequest request = new JobRequest().name("generated-client").numCpus(1)
                .entryPoint("echo trained as $TRAINING_ROLE");

        SubmitResult planned = jobs.submit(request, true, null, null);
        assertThat(planned.getActualInstance()).isInstanceOf(DryRunView.class);
        assertThat(planned.getDryRunView().getPlan().getTrainers().getCount()).isEqualTo(1);

        SubmitResult submitted = jobs.submit(request, false, null, null);
        assertThat(submitted.getActualInstance()).isInstanceOf(JobView.class);
        assertThat(submitted.getJobView().getStatusUrl().toString())
                .isEqualTo("http://127.0.0.1:%d/jobs/generated-client/status?namespace=default".formatted(port));

        await().atMost(DEADLINE).until(() -> jobs.status("generated-client", null).getPhase(),
                phase -> phase == JobStatus.PhaseEnum.SUCCEEDED);
        assertThat(jobs.logs("generated-client", null, "trainer", 0, null, false, null)).contains("trained as TRAINER");
        assertThat(jobs.callList(null, "Succeeded", null, 500, null, null, null, null, null).getItems()).extracting(JobSummary::getName)
                .contains("generated-client");
        assertThat(jobs.submit(request, false, null, null).getJobView().getName())
                .as("an identical resubmit answers the existing job").isEqualTo("generated-client");

        jobs.delete("generated-client", null);
        ApiException gone = catchThrowableOfType(ApiException.class, () -> jobs.get("generated-client", null));
        assertThat(gone.getCode()).isEqualTo(404);
    }

    @Test
    void generatedClientCancelsARunningJob() throws Exception {
        jobs.submit(new JobRequest().name("generated-cancel").entryPoint("sleep 300"), false, null, null);
        await().atMost(DEADLINE).until(() -> jobs.status("generated-cancel", null).getPhase(),
                phase -> phase == JobStatus.PhaseEnum.RUNNING);

        JobView cancelled = jobs.cancel("generated-cancel", null);

        assertThat(cancelled.getStatus().getPhase()).isEqualTo(JobStatus.PhaseEnum.CANCELLED);
        assertThat(jobs.get("generated-cancel", null).getStatus().getPhase()).isEqualTo(JobStatus.PhaseEnum.CANCELLED);
        jobs.delete("generated-cancel", null);
    }

    @Test
    void generatedClientReadsABadRequestAsAProblemNamingTheField() throws Exception {
        ApiException refused = catchThrowableOfType(ApiException.class,
                () -> jobs.submit(new JobRequest().entryPoint("true").numCpus(0), true, null, null));

        assertThat(refused.getCode()).isEqualTo(400);
        Problem problem = new JSON().getMapper().readValue(refused.getResponseBody(), Problem.class);
        assertThat(problem.getStatus()).isEqualTo(400);
        assertThat(problem.getErrors()).extracting(FieldError::getField).containsExactly("num_cpus");
    }
}
