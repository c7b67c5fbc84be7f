package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import io.paddlejobs.testing.KubeflowExamples;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

/** POST /jobs/import: a Kubeflow PaddleJob manifest as it is, over HTTP, on the local backend. */
class PaddleJobImportApiTest extends ApiTest {

    private MvcResult importing(String manifest, String contentType, boolean dryRun) throws Exception {
        return mvc.perform(post("/jobs/import").queryParam("dry_run", Boolean.toString(dryRun))
                .contentType(contentType).content(manifest)).andReturn();
    }

    @Test
    void kubeflowsCollectiveExampleImportsAsItIsAndADryRunPlansItsTwoTrainers() throws Exception {
        MvcResult result = importing(KubeflowExamples.read("collective.yaml"), "application/yaml", true);

        assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(200);
        JsonNode answer = bodyOf(result);
        assertThat(answer.path("kind").asString()).isEqualTo("Import");
        assertThat(answer.path("request").path("entry_point").asString())
                .isEqualTo("python -m paddle.distributed.launch run_check");
        assertThat(answer.path("request").path("trainers").asInt()).isEqualTo(2);
        assertThat(answer.path("result").path("kind").asString()).isEqualTo("DryRun");
        assertThat(answer.path("result").path("plan").path("trainers").path("count").asInt()).isEqualTo(2);
        assertThat(answer.path("dropped").toString()).contains("metadata.namespace");
        assertThat(result.getResponse().getHeaders("Warning")).anySatisfy(w -> assertThat(w)
                .startsWith("299 - \"").contains("metadata.namespace dropped"));
    }

    @Test
    void aManifestTheServiceCannotHonourIsA400NamingEachFieldAndNothingIsCreated() throws Exception {
        String manifest = """
                {"apiVersion": "kubeflow.org/v1", "kind": "PaddleJob", "metadata": {"name": "refused-import"},
                 "spec": {"runPolicy": {"suspend": true}, "paddleReplicaSpecs": {"Worker": {"replicas": 1,
                  "template": {"spec": {"containers": [{"name": "paddle", "command": ["true"],
                   "envFrom": [{"secretRef": {"name": "s3"}}]}]}}}}}}""";
        JsonNode problem = assertProblem(importing(manifest, MediaType.APPLICATION_JSON_VALUE, false), 400);

        assertThat(problem.path("errors").toString()).contains("spec.runPolicy.suspend",
                "spec.paddleReplicaSpecs.Worker.template.spec.containers[0].envFrom");
        assertThat(client.get("/jobs/refused-import").statusCode()).isEqualTo(404);
    }

    @Test
    void aParameterServerManifestPlacedOnNodesIsRefusedByTheLocalBackendNamingEachClusterField() throws Exception {
        JsonNode problem = assertProblem(importing(KubeflowExamples.read("ps.yaml"), "application/yaml", true), 400);
        assertThat(problem.path("errors").toString()).contains("node_selector", "tolerations", "volumes",
                "kubernetes backend");
        assertThat(problem.path("errors").toString()).as("the launcher was taken out of the ps job's command")
                .doesNotContain("paddle.distributed.launch");
    }

    @Test
    void aRequestFieldRuleBrokenByTheManifestIsA400AsASubmitsWouldBe() throws Exception {
        String manifest = KubeflowExamples.read("collective.yaml").replace("containerPort: 37777", "containerPort: 80");
        JsonNode problem = assertProblem(importing(manifest, "application/yaml", true), 400);
        assertThat(problem.path("errors").toString()).contains("\"port\"");
    }

    @Test
    void anImportedCollectiveJobRunsOnTheLocalBackend() throws Exception {
        String manifest = """
                apiVersion: kubeflow.org/v1
                kind: PaddleJob
                metadata: {name: imported-run}
                spec:
                  paddleReplicaSpecs:
                    Worker:
                      replicas: 2
                      template:
                        spec:
                          containers:
                            - name: paddle
                              image: busybox
                              command: [sh, -c, 'echo "rank $(PADDLE_TRAINER_ID) of $(PADDLE_TRAINERS_NUM) says $(GREETING)"']
                              env: [{name: GREETING, value: "it's me"}]
                """;
        HttpResponse<String> created = client.send(HttpRequest.newBuilder(URI.create(client.baseUrl() + "/jobs/import"))
                .header("Content-Type", "application/yaml").POST(HttpRequest.BodyPublishers.ofString(manifest)));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        await().atMost(Duration.ofSeconds(60)).until(() -> json.readTree(
                client.get("/jobs/imported-run/status").body()).path("phase").asString().equals("Succeeded"));
        assertThat(client.get("/jobs/imported-run/logs?role=trainer&index=1").body())
                .isEqualTo("rank 1 of 2 says it's me\n");
    }
}
