package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import io.paddlejobs.api.openapi.RequestExamples;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

/** docs/request.md, "Plan without running: dry run": {@code POST /jobs?dry_run=true} answers with the whole plan and starts nothing. */
class DryRunTest extends ApiTest {

    @Test
    void dryRunOfTheBeginnerExampleShowsCountsResourcesAndTotals() throws Exception {
        MvcResult result = dryRun(RequestExamples.BEGINNER);

        assertThat(result.getResponse().getStatus()).isEqualTo(200);
        assertThat(result.getResponse().getHeaders("Warning")).isEmpty();
        JsonNode body = bodyOf(result);
        assertThat(body.path("dry_run").asBoolean()).isTrue();
        assertThat(body.path("name").asString()).isEqualTo("fit-a-line");
        assertThat(body.path("warnings").isEmpty()).isTrue();
        JsonNode plan = body.path("plan");
        assertThat(plan.at("/trainers/count").asInt()).isEqualTo(2);
        assertThat(plan.at("/pservers/count").asInt()).isEqualTo(2);
        assertThat(resources(plan.at("/trainers/per_replica"))).isEqualTo("cpu=1 gpu=0 memory=2Gi");
        assertThat(resources(plan.at("/pservers/per_replica"))).isEqualTo("cpu=1 gpu=0 memory=1Gi");
        assertThat(resources(plan.path("totals"))).isEqualTo("cpu=4 gpu=0 memory=6Gi");
        assertThat(plan.at("/trainers/entry_point").asString()).isEqualTo("python train.py");
        assertThat(plan.path("replicas")).hasSize(4);
    }

    @Test
    void dryRunShowsTheRuleBehindEachDerivedNumber() throws Exception {
        JsonNode plan = bodyOf(dryRun(RequestExamples.BEGINNER)).path("plan");

        Map<String, JsonNode> derivations = new LinkedHashMap<>();
        plan.path("derivations").forEach(d -> derivations.put(d.path("field").asString(), d));
        assertThat(derivations).containsKeys("trainers", "trainer_cpu", "trainer_mem", "pservers", "use_gpu");
        assertThat(derivations.get("trainers").path("value").asString()).isEqualTo("2");
        assertThat(derivations.get("trainers").path("rule").asString()).contains("one trainer per CPU");
        assertThat(derivations.get("trainer_mem").path("rule").asString()).isEqualTo("memory / trainers");
        assertThat(derivations.get("pservers").path("rule").asString()).isEqualTo("one pserver per trainer");
    }

    @Test
    void dryRunShowsEveryReplicasEnvironmentForAllThreePaddleGenerations() throws Exception {
        JsonNode plan = bodyOf(dryRun(RequestExamples.BEGINNER)).path("plan");
        List<String> pservers = hostsOf(plan, "pserver");
        List<String> trainers = hostsOf(plan, "trainer");
        JsonNode trainer1 = replica(plan, "trainer", 1).path("env");
        JsonNode pserver0 = replica(plan, "pserver", 0).path("env");

        assertThat(pservers).hasSize(2).doesNotHaveDuplicates();
        // 1. the seed's names
        assertThat(trainer1.path("PADDLE_PSERVERS").asString()).isEqualTo(String.join(",", pservers));
        assertThat(trainer1.path("PADDLE_PORT").asString()).isEqualTo("7164");
        assertThat(trainer1.path("PADDLE_NUM_GRADIENT_SERVERS").asString()).isEqualTo("2");
        assertThat(trainer1.path("PADDLE_TRAINER_ID").asString()).isEqualTo("1");
        assertThat(trainer1.path("PADDLE_TRAINER_COUNT").asString()).as("devices per trainer").isEqualTo("1");
        assertThat(trainer1.path("PADDLE_USE_GPU").asString()).isEqualTo("false");
        assertThat(pserver0.has("PADDLE_TRAINER_ID")).isFalse();
        // 2. Paddle v2 flags: exactly the eight, never empty
        assertThat(namesStartingWith(trainer1, "PADDLE_INIT_")).containsExactlyInAnyOrder("PADDLE_INIT_PSERVERS",
                "PADDLE_INIT_PORT", "PADDLE_INIT_PORTS_NUM", "PADDLE_INIT_PORTS_NUM_FOR_SPARSE",
                "PADDLE_INIT_NUM_GRADIENT_SERVERS", "PADDLE_INIT_TRAINER_ID", "PADDLE_INIT_TRAINER_COUNT",
                "PADDLE_INIT_USE_GPU");
        assertThat(trainer1.path("PADDLE_INIT_TRAINER_ID").asString()).isEqualTo("1");
        namesStartingWith(trainer1, "PADDLE_INIT_").forEach(name -> assertThat(trainer1.path(name).asString()).isNotEmpty());
        // 3. Paddle 2.x fleet
        assertThat(trainer1.path("TRAINING_ROLE").asString()).isEqualTo("TRAINER");
        assertThat(pserver0.path("PADDLE_TRAINING_ROLE").asString()).isEqualTo("PSERVER");
        assertThat(trainer1.path("PADDLE_PSERVERS_IP_PORT_LIST").asString())
                .isEqualTo(pservers.get(0) + ":7164," + pservers.get(1) + ":7164");
        assertThat(trainer1.path("PADDLE_TRAINER_ENDPOINTS").asString())
                .isEqualTo(trainers.get(0) + ":7164," + trainers.get(1) + ":7164");
        assertThat(trainer1.path("PADDLE_TRAINERS_NUM").asString()).isEqualTo("2");
        assertThat(trainer1.path("POD_IP").asString()).isEqualTo(trainers.get(1));
        assertThat(pserver0.path("POD_IP").asString()).isEqualTo(pservers.get(0));
        // the platform's own, and none of the names that mean other things elsewhere
        assertThat(trainer1.path("PADDLE_JOB_NAME").asString()).isEqualTo("fit-a-line");
        assertThat(trainer1.path("PADDLE_JOB_DATA").asString()).startsWith(DATA_ROOT.toAbsolutePath().normalize().toString());
        for (JsonNode replica : plan.path("replicas")) {
            assertThat(replica.path("env").has("PADDLE_TRAINERS")).isFalse();
            assertThat(replica.path("env").has("PADDLE_MASTER")).isFalse();
            assertThat(replica.path("env").has("PADDLE_NNODES")).isFalse();
            assertThat(replica.path("env").path("PADDLE_PSERVERS_IP_PORT_LIST"))
                    .isEqualTo(trainer1.path("PADDLE_PSERVERS_IP_PORT_LIST"));
        }
    }

    /**
     * Round 3's L5: on a machine with GPUs a start replaces the request's device variables with the devices
     * it assigns, so the dry run shows them as assigned at start, not as the request gave them.
     */
    @Test
    @Tag("redteam")
    void dryRunShowsTheDeviceVariablesAStartReplacesAsAssignedAtStart() throws Exception {
        JsonNode body = bodyOf(dryRun(json("""
                {'name': 'devices', 'num_gpus': 2, 'num_cpus': 2, 'entry_point': 'python train.py',
                 'env': {'CUDA_VISIBLE_DEVICES': '0,1', 'NVIDIA_VISIBLE_DEVICES': 'all', 'MY_FLAG': '1'}}""")));
        JsonNode trainer = replica(body.path("plan"), "trainer", 0).path("env");
        JsonNode pserver = replica(body.path("plan"), "pserver", 0).path("env");

        assertThat(trainer.path("CUDA_VISIBLE_DEVICES").asString()).isEqualTo("(assigned at start)");
        assertThat(trainer.path("NVIDIA_VISIBLE_DEVICES").asString()).isEqualTo("(assigned at start)");
        assertThat(pserver.path("CUDA_VISIBLE_DEVICES").asString()).isEqualTo("(assigned at start)");
        assertThat(pserver.path("NVIDIA_VISIBLE_DEVICES").asString()).as("a pserver gets no devices: kept").isEqualTo("all");
        assertThat(trainer.path("MY_FLAG").asString()).isEqualTo("1");
        assertThat(body.path("warnings").toString()).contains("CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES are replaced at start");
    }

    @Test
    void dryRunOfACollectiveJobShowsTrainersOnlyAndSaysTheMode() throws Exception {
        JsonNode plan = bodyOf(dryRun(RequestExamples.COLLECTIVE)).path("plan");

        assertThat(plan.at("/spec/mode").asString()).isEqualTo("collective");
        assertThat(plan.at("/pservers/count").asInt()).isZero();
        assertThat(plan.at("/trainers/count").asInt()).isEqualTo(2);
        assertThat(plan.path("replicas")).hasSize(2).allSatisfy(r -> assertThat(r.path("role").asString()).isEqualTo("trainer"));
        assertThat(plan.at("/derivations/0/field").asString()).isEqualTo("mode");
        assertThat(plan.at("/derivations/0/value").asString()).isEqualTo("collective");
        JsonNode env = replica(plan, "trainer", 1).path("env");
        assertThat(env.path("PADDLE_DISTRI_BACKEND").asString()).isEqualTo("gloo");
        assertThat(env.path("PADDLE_MASTER").asString()).isEqualTo(env.path("PADDLE_TRAINER_ENDPOINTS").asString().split(",")[0]);
        assertThat(env.path("PADDLE_CURRENT_ENDPOINT").asString()).isEqualTo(
                env.path("PADDLE_TRAINER_ENDPOINTS").asString().split(",")[1]);
        assertThat(env.path("MASTER_ADDR").asString() + ":" + env.path("MASTER_PORT").asString())
                .isEqualTo(env.path("PADDLE_MASTER").asString());
        assertThat(env.path("POD_IP").asString() + ":" + env.path("MASTER_PORT").asString())
                .isEqualTo(env.path("PADDLE_CURRENT_ENDPOINT").asString());
        assertThat(env.path("RANK").asString()).isEqualTo("1");
        assertThat(env.path("NNODES").asString()).isEqualTo("2").isEqualTo(env.path("PADDLE_NNODES").asString());
    }

    @Test
    void dryRunPassesTheUsersOwnEnvironmentToEveryReplica() throws Exception {
        JsonNode plan = bodyOf(dryRun(RequestExamples.ADVANCED)).path("plan");

        assertThat(plan.path("replicas")).hasSize(6)
                .allSatisfy(replica -> assertThat(replica.path("env").path("EPOCHS").asString()).isEqualTo("30"));
        assertThat(plan.at("/pservers/entry_point").asString()).isEqualTo("python train.py --role pserver");
        assertThat(replica(plan, "trainer", 0).path("env").path("PADDLE_USE_GPU").asString()).isEqualTo("true");
    }

    @ParameterizedTest
    @ValueSource(strings = {RequestExamples.BEGINNER, RequestExamples.ADVANCED, RequestExamples.COLLECTIVE})
    void swaggerExamplesPlanWithoutWarnings(String example) throws Exception {
        MvcResult result = dryRun(example);

        assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(200);
        assertThat(bodyOf(result).path("warnings").isEmpty()).isTrue();
    }

    @Test
    void dryRunWithUseGpuButNoGpusWarnsInBodyAndHeader() throws Exception {
        MvcResult result = dryRun(json("{'entry_point':'true','use_gpu':true,'num_gpus':0}"));

        assertThat(result.getResponse().getStatus()).isEqualTo(200);
        List<String> warnings = new ArrayList<>();
        bodyOf(result).path("warnings").forEach(w -> warnings.add(w.asString()));
        assertThat(warnings).singleElement().asString().contains("use_gpu is true").contains("no GPUs");
        assertThat(result.getResponse().getHeaders("Warning")).containsExactly("299 - \"" + warnings.get(0) + "\"");
    }

    @Test
    void dryRunWithoutNameShowsAGeneratedOne() throws Exception {
        JsonNode body = bodyOf(dryRun(json("{'entry_point':'true'}")));

        assertThat(body.path("name").asString()).matches("job-[a-z0-9]{5}");
        assertThat(body.at("/plan/spec/name").asString()).isEqualTo(body.path("name").asString());
    }

    @Test
    void dryRunStartsNothing() throws Exception {
        String namespace = "dry-run-only";
        MvcResult result = mvc.perform(post("/jobs").queryParam("dry_run", "true").queryParam("namespace", namespace)
                .contentType(MediaType.APPLICATION_JSON).content(json("{'name':'not-started','entry_point':'sleep 30'}")))
                .andReturn();

        assertThat(result.getResponse().getStatus()).isEqualTo(200);
        assertThat(result.getResponse().getHeader("Location")).isNull();
        JsonNode list = bodyOf(mvc.perform(get("/jobs").queryParam("namespace", namespace)).andReturn());
        assertThat(list.path("items").isEmpty()).as("jobs listed after a dry run: %s", list).isTrue();
        assertThat(mvc.perform(get("/jobs/not-started").queryParam("namespace", namespace)).andReturn()
                .getResponse().getStatus()).isEqualTo(404);
        assertThat(Files.exists(DATA_ROOT.resolve("jobs").resolve(namespace))).isFalse();
    }

    private static String resources(JsonNode resources) {
        return "cpu=%s gpu=%s memory=%s".formatted(resources.path("cpu").asString(), resources.path("gpu").asString(),
                resources.path("memory").asString());
    }

    private static JsonNode replica(JsonNode plan, String role, int index) {
        for (JsonNode replica : plan.path("replicas")) {
            if (replica.path("role").asString().equals(role) && replica.path("index").asInt() == index) {
                return replica;
            }
        }
        throw new AssertionError("no " + role + " " + index + " in " + plan.path("replicas"));
    }

    private static List<String> hostsOf(JsonNode plan, String role) {
        List<String> hosts = new ArrayList<>();
        plan.path("replicas").forEach(r -> {
            if (r.path("role").asString().equals(role)) {
                hosts.add(r.path("index").asInt(), r.path("host").asString());
            }
        });
        return hosts;
    }

    private static List<String> namesStartingWith(JsonNode env, String prefix) {
        List<String> names = new ArrayList<>();
        env.propertyNames().forEach(name -> {
            if (name.startsWith(prefix)) {
                names.add(name);
            }
        });
        return names;
    }
}
