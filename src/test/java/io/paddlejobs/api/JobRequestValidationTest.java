package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

/** docs/request.md: every request rule answers 400 with a problem document naming the fields involved. */
class JobRequestValidationTest extends ApiTest {

    static Stream<Arguments> fieldRules() {
        return Stream.of(
                arguments("{'name':'Fit_A_Line','entry_point':'true'}", "name", "lower-case"),
                arguments("{'name':'-fit','entry_point':'true'}", "name", "lower-case"),
                arguments("{'name':'1abc','entry_point':'true'}", "name", "starting with a letter"),
                arguments("{'name':'','entry_point':'true'}", "name", "between 1 and 40"),
                arguments("{'name':'" + "a".repeat(41) + "','entry_point':'true'}", "name", "between 1 and 40"),
                arguments("{'num_gpus':1}", "entry_point", "must not be blank"),
                arguments("{'entry_point':null}", "entry_point", "must not be blank"),
                arguments("{'entry_point':'   '}", "entry_point", "must not be blank"),
                arguments("{'entry_point':'" + "x".repeat(4097) + "'}", "entry_point", "4096"),
                arguments("{'entry_point':'tr\\u0000ue'}", "entry_point", "NUL"),
                arguments("{'entry_point':'true','pserver_entry_point':'\\u0000'}", "pserver_entry_point", "NUL"),
                arguments("{'entry_point':'true','pserver_entry_point':''}", "pserver_entry_point", "size"),
                arguments("{'entry_point':'true','image':'my image'}", "image", "white space"),
                arguments("{'entry_point':'true','num_gpus':-1}", "num_gpus", "greater than or equal to 0"),
                arguments("{'entry_point':'true','trainer_gpu':-2}", "trainer_gpu", "greater than or equal to 0"),
                arguments("{'entry_point':'true','num_cpus':0}", "num_cpus", "greater than or equal to 1"),
                arguments("{'entry_point':'true','trainers':0}", "trainers", "greater than or equal to 1"),
                arguments("{'entry_point':'true','pservers':-1}", "pservers", "greater than or equal to 1"),
                arguments("{'entry_point':'true','memory':'1 GB'}", "memory", "memory quantity"),
                arguments("{'entry_point':'true','memory':'0'}", "memory", "greater than 0"),
                arguments("{'entry_point':'true','trainer_mem':'lots'}", "trainer_mem", "memory quantity"),
                arguments("{'entry_point':'true','pserver_mem':'-1Gi'}", "pserver_mem", "memory quantity"),
                arguments("{'entry_point':'true','memory':'1e99999999'}", "memory", "memory quantity"),
                arguments("{'entry_point':'true','memory':'1e999999999'}", "memory", "memory quantity"),
                arguments("{'entry_point':'true','memory':'101Ti'}", "memory", "at most 100Ti"),
                arguments("{'entry_point':'true','trainers':2147483647}", "trainers", "less than or equal to 10000"),
                arguments("{'entry_point':'true','trainers':4,'trainer_gpu':1073741824}", "trainer_gpu", "less than or equal"),
                arguments("{'entry_point':'true','pservers':10001}", "pservers", "less than or equal to 10000"),
                arguments("{'entry_point':'true','num_cpus':2147483647}", "num_cpus", "less than or equal to 10000"),
                arguments("{'entry_point':'true','mode':'allreduce'}", "mode", "must be ps or collective"),
                arguments("{'entry_point':'true','mode':'PS'}", "mode", "must be ps or collective"),
                arguments("{'entry_point':'true','mode':'collective','pservers':2}", "pservers", "collective job"),
                arguments("{'entry_point':'true','mode':'collective','pserver_mem':'1Gi'}", "pserver_mem", "no pservers"),
                arguments("{'entry_point':'true','mode':'collective','pserver_entry_point':'x'}", "pserver_entry_point", "no pservers"),
                arguments("{'entry_point':'true','port':0}", "port", "at least 1024"),
                arguments("{'entry_point':'true','port':80}", "port", "at least 1024"),
                arguments("{'entry_point':'true','max_run_time':'0s'}", "max_run_time", "longer than 0"),
                arguments("{'entry_point':'true','max_run_time':'2 hours'}", "max_run_time", "such as 90m"),
                arguments("{'entry_point':'true','max_run_time':'m'}", "max_run_time", "such as 90m"),
                arguments("{'entry_point':'true','port':70000}", "port", "less than or equal to 65535"),
                arguments("{'entry_point':'true','max_restarts':-1}", "max_restarts", "greater than or equal to 0"),
                arguments("{'entry_point':'true','max_restarts':3,'restart_on':'sometimes'}", "restart_on", "infrastructure"),
                arguments("{'entry_point':'true','max_restarts':3,'restart_on':[]}", "restart_on", "exit codes"),
                arguments("{'entry_point':'true','max_restarts':3,'restart_on':[1,256]}", "restart_on", "1..255"),
                arguments("{'entry_point':'true','max_restarts':3,'restart_on':[0]}", "restart_on", "1..255"),
                arguments("{'entry_point':'true','max_restarts':3,'restart_on':[1.5]}", "restart_on", "1..255"),
                arguments("{'entry_point':'true','max_restarts':3,'restart_on':true}", "restart_on", "infrastructure"),
                arguments("{'entry_point':'true','max_restarts':3,'restart_on':{'any':true}}", "restart_on", "infrastructure"),
                arguments("{'entry_point':'true','stall_timeout':'0m'}", "stall_timeout", "longer than 0"),
                arguments("{'entry_point':'true','stall_timeout':'half an hour'}", "stall_timeout", "such as 30m"),
                arguments("{'entry_point':'true','debug_hold':'0s'}", "debug_hold", "longer than 0"),
                arguments("{'entry_point':'true','debug_hold':'1h'}", "debug_hold", "paddlejobs.limits.max-debug-hold"),
                arguments("{'entry_point':'true','env':{'PADDLE_JOB_CHECKPOINT_DIR':'/tmp'}}", "env", "PADDLE_JOB_CHECKPOINT_DIR: is injected"),
                arguments("{'entry_point':'true','env':{'PADDLE_JOB_RESTART_COUNT':'0'}}", "env", "PADDLE_JOB_RESTART_COUNT: is injected"),
                arguments("{'entry_point':'true','ports_num':0}", "ports_num", "greater than or equal to 1"),
                arguments("{'entry_point':'true','env':{'1BAD':'x'}}", "env", "1BAD: name must match"),
                arguments("{'entry_point':'true','env':{'A-B':'x'}}", "env", "A-B: name must match"),
                arguments("{'entry_point':'true','env':{'PADDLE_TRAINER_ID':'3'}}", "env", "PADDLE_TRAINER_ID: is injected"),
                arguments("{'entry_point':'true','env':{'POD_IP':'10.0.0.1'}}", "env", "POD_IP: is injected"),
                arguments("{'entry_point':'true','mode':'collective','env':{'MASTER_PORT':'8080'}}", "env",
                        "MASTER_PORT: is injected"),
                arguments("{'entry_point':'true','env':{'NNODES':'3'}}", "env", "NNODES: is injected"),
                arguments("{'entry_point':'python -m paddle.distributed.launch --nnodes 3 t.py','mode':'collective',"
                        + "'trainers':2}", "entry_point", "paddle.distributed.launch --nnodes 3 contradicts the plan"),
                arguments("{'entry_point':'true','env':{'PADDLE_INIT_FOO':'1'}}", "env", "PADDLE_INIT_FOO: is injected"),
                arguments("{'entry_point':'true','env':{'POD_NAME':'x'}}", "env", "POD_NAME: is set by the backend"),
                arguments("{'entry_point':'true','env':{'JOB_COMPLETION_INDEX':'0'}}", "env", "JOB_COMPLETION_INDEX: is set by the backend"),
                arguments("{'entry_point':'true','env':{'A':null}}", "env", "A: value must be a string"),
                arguments("{'entry_point':'true','env':{'A':'x\\u0000y'}}", "env", "A: value must not contain NUL"),
                arguments("{'entry_point':'true','labels':{'bad key':'v'}}", "labels", "bad key: key name"),
                arguments("{'entry_point':'true','labels':{'Example.COM/team':'v'}}", "labels", "key prefix"),
                arguments("{'entry_point':'true','labels':{'team':'bad value'}}", "labels", "team: value must be"),
                arguments("{'entry_point':'true','labels':{'paddlejobs.io/role':'x'}}", "labels", "set by paddle-jobs"),
                arguments("{'entry_point':'true','labels':{'app.kubernetes.io/name':'x'}}", "labels", "set by paddle-jobs"),
                arguments("{'entry_point':'true','labels':{'batch.kubernetes.io/controller-uid':'abc'}}", "labels", "reserved for Kubernetes"),
                arguments("{'entry_point':'true','labels':{'kubernetes.io/arch':'amd64'}}", "labels", "reserved for Kubernetes"),
                arguments("{'entry_point':'true','labels':{'node.k8s.io/x':'y'}}", "labels", "reserved for Kubernetes"),
                arguments("{'entry_point':'true','labels':{'job-name':'other'}}", "labels", "reserved for Kubernetes"),
                arguments("{'entry_point':'true','labels':{'controller-uid':'u'}}", "labels", "reserved for Kubernetes"));
    }

    @ParameterizedTest(name = "[{index}] {1}: {0}")
    @MethodSource("fieldRules")
    void submitBreakingAFieldRuleReturnsProblemNamingTheField(String body, String field, String message) throws Exception {
        JsonNode problem = assertProblem(dryRun(json(body)), 400);

        assertThat(errorsOn(problem, field)).as("errors on %s in %s", field, problem)
                .anySatisfy(error -> assertThat(error.path("message").asString()).contains(message));
    }

    @Test
    void errorsComeSortedByFieldThenMessageSoThatARequestAlwaysGetsTheSameDocument() throws Exception {
        String body = json("{'port':0,'num_gpus':-1,'memory':'x','entry_point':'','env':{'POD_IP':'y','B-C':'z','1A':'x'}}");

        JsonNode errors = assertProblem(dryRun(body), 400).path("errors");

        List<String> fieldsAndMessages = new ArrayList<>();
        errors.forEach(error -> fieldsAndMessages.add(error.path("field").asString() + " " + error.path("message").asString()));
        assertThat(fieldsAndMessages).hasSize(7).isSorted();
    }

    static Stream<Arguments> crossFieldConflicts() {
        return Stream.of(
                arguments("{'entry_point':'true','trainers':2,'trainer_gpu':1,'num_gpus':3}",
                        List.of("trainers", "trainer_gpu", "num_gpus")),
                arguments("{'entry_point':'true','num_gpus':4,'trainer_gpu':3}", List.of("num_gpus", "trainer_gpu")),
                arguments("{'entry_point':'true','num_gpus':3,'trainers':2}", List.of("num_gpus", "trainers")),
                arguments("{'entry_point':'true','trainers':2,'trainer_cpu':1,'num_cpus':3}",
                        List.of("trainers", "trainer_cpu", "num_cpus")),
                arguments("{'entry_point':'true','trainers':2,'trainer_mem':'1Gi','memory':'3Gi'}",
                        List.of("trainers", "trainer_mem", "memory")),
                arguments("{'entry_point':'true','port':65535,'ports_num':2}",
                        List.of("port", "ports_num", "ports_num_for_sparse")),
                arguments("{'entry_point':'true','restart_on':'any'}", List.of("restart_on", "max_restarts")),
                arguments("{'entry_point':'true','max_restarts':1,'restart_on':['stall']}",
                        List.of("restart_on", "stall_timeout")));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("crossFieldConflicts")
    void submitWithConflictingFieldsReturnsProblemNamingEveryFieldInvolved(String body, List<String> fields)
            throws Exception {
        JsonNode problem = assertProblem(dryRun(json(body)), 400);

        for (String field : fields) {
            assertThat(errorsOn(problem, field)).as("errors on %s in %s", field, problem).isNotEmpty();
        }
    }

    static Stream<Arguments> configuredLimits() {
        return Stream.of(
                arguments("{'entry_point':'true','trainers':65}", "trainers", "64", "max-trainers"),
                arguments("{'entry_point':'true','trainers':1,'pservers':65}", "pservers", "64", "max-pservers"),
                arguments("{'entry_point':'true','num_gpus':17}", "num_gpus", "16", "max-gpus"),
                arguments("{'entry_point':'true','num_cpus':300,'trainer_cpu':300}", "num_cpus", "256", "max-cpus"),
                arguments("{'entry_point':'true','memory':'600Gi'}", "memory", "512Gi", "max-memory"),
                arguments("{'entry_point':'true','max_restarts':11}", "max_restarts", "10", "max-restarts"),
                // the largest values the fields allow: refused by the limits, with no arithmetic overflow on the way
                arguments("{'entry_point':'true','trainers':10000,'trainer_cpu':10000,'trainer_gpu':10000,"
                        + "'trainer_mem':'100Ti','pservers':10000,'pserver_cpu':10000,'pserver_mem':'100Ti'}",
                        "memory", "512Gi", "max-memory"));
    }

    @ParameterizedTest(name = "[{index}] {3}")
    @MethodSource("configuredLimits")
    void submitOverAConfiguredLimitReturnsProblemNamingTheLimitAndItsKey(String body, String field, String limit,
                                                                        String key) throws Exception {
        JsonNode problem = assertProblem(dryRun(json(body)), 400);

        assertThat(errorsOn(problem, field)).as("errors on %s in %s", field, problem)
                .anySatisfy(error -> assertThat(error.path("message").asString())
                        .contains("limit is " + limit).contains("paddlejobs.limits." + key));
    }

    @Test
    void restartFieldsInTheirWireFormAreAcceptedAndShownAsGivenInTheSpec() throws Exception {
        MvcResult result = dryRun(json("{'entry_point':'true','max_restarts':3,'restart_on':['infrastructure',137,1],"
                + "'stall_timeout':'30m'}"));

        assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(200);
        JsonNode spec = this.json.readTree(result.getResponse().getContentAsString()).path("plan").path("spec");
        assertThat(spec.path("max_restarts").asInt()).isEqualTo(3);
        assertThat(spec.path("restart_on").toString()).isEqualTo("[\"infrastructure\",1,137]");
    }

    @Test
    void submitWithUnknownFieldReturnsProblemNamingTheField() throws Exception {
        MvcResult result = mvc.perform(post("/jobs").contentType(MediaType.APPLICATION_JSON)
                .content(json("{'entry_point':'true','num_gpu':2}"))).andReturn();

        JsonNode problem = assertProblem(result, 400);
        assertThat(errorsOn(problem, "num_gpu")).singleElement()
                .satisfies(error -> assertThat(error.path("message").asString()).contains("not a known field"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"num_gpu, num_gpus", "numCpus, num_cpus", "entryPoint, entry_point", "trainer_gpus, trainer_gpu",
            "max_runtime, max_run_time"})
    void submitWithAFieldNearAKnownOneSuggestsIt(String unknown, String known) throws Exception {
        JsonNode problem = assertProblem(dryRun(json("{'entry_point':'true','" + unknown + "':2}")), 400);

        assertThat(errorsOn(problem, unknown)).singleElement().satisfies(error ->
                assertThat(error.path("message").asString()).endsWith("did you mean " + known + "?"));
    }

    @Test
    void submitWithAFieldUnlikeAnyKnownOneSuggestsNoneAndPointsToTheDocs() throws Exception {
        JsonNode problem = assertProblem(dryRun(json("{'entry_point':'true','epochs':2}")), 400);

        assertThat(errorsOn(problem, "epochs")).singleElement().satisfies(error -> assertThat(error.path("message")
                .asString()).doesNotContain("did you mean").contains("docs/request.md"));
    }

    @Test
    void aScriptThatIsNotOnThisMachineIsAPlanWarningAtSubmit() throws Exception {
        MvcResult result = dryRun(json("{'entry_point':'python3 -u /nonexistent/train.py'}"));

        assertThat(result.getResponse().getStatus()).isEqualTo(200);
        assertThat(bodyOf(result).path("warnings").toString()).contains("/nonexistent/train.py", "does not exist");
    }

    @Test
    void aConflictShowsEachFieldWithItsOwnValue() throws Exception {
        JsonNode problem = assertProblem(dryRun(json("{'entry_point':'true','num_gpus':2,'trainers':3,'trainer_gpu':1}")), 400);

        assertThat(errorsOn(problem, "num_gpus")).singleElement().satisfies(e -> assertThat(e.path("rejected").asInt()).isEqualTo(2));
        assertThat(errorsOn(problem, "trainers")).singleElement().satisfies(e -> assertThat(e.path("rejected").asInt()).isEqualTo(3));
        assertThat(errorsOn(problem, "trainer_gpu")).singleElement()
                .satisfies(e -> assertThat(e.path("rejected").asInt()).isEqualTo(1));
    }

    static Stream<Arguments> wrongTypes() {
        return Stream.of(
                arguments("{'entry_point':'true','num_gpus':'two'}", "num_gpus", "whole number"),
                arguments("{'entry_point':'true','num_gpus':1.5}", "num_gpus", "whole number"),
                arguments("{'entry_point':'true','trainers':true}", "trainers", "whole number"),
                arguments("{'entry_point':'true','num_gpus':99999999999}", "num_gpus", "whole number"),
                arguments("{'entry_point':'true','use_gpu':'yes'}", "use_gpu", "true or false"),
                // no field takes its value as text: a quoted number or boolean is a mistake to hear about
                arguments("{'entry_point':'true','num_cpus':'2'}", "num_cpus", "whole number"),
                arguments("{'entry_point':'true','port':''}", "port", "whole number"),
                arguments("{'entry_point':'true','max_restarts':'3'}", "max_restarts", "whole number"),
                arguments("{'entry_point':'true','use_gpu':'true'}", "use_gpu", "true or false"),
                arguments("{'entry_point':'true','use_gpu':1}", "use_gpu", "true or false"),
                arguments("{'entry_point':'true','trainers':false}", "trainers", "whole number"),
                arguments("{'entry_point':{'cmd':'true'}}", "entry_point", "a string"),
                arguments("{'entry_point':['true']}", "entry_point", "a string"),
                arguments("{'entry_point':-1.9}", "entry_point", "a string"),
                arguments("{'entry_point':7}", "entry_point", "a string"),
                arguments("{'entry_point':true}", "entry_point", "a string"),
                arguments("{'entry_point':'true','env':{'A':1}}", "env.A", "a string"),
                arguments("{'entry_point':'true','env':{'A':{'b':1}}}", "env.A", "a string"),
                arguments("{'entry_point':'true','env':'A=1'}", "env", "an object"),
                arguments("{'entry_point':'true','labels':['team']}", "labels", "an object"));
    }

    @ParameterizedTest(name = "[{index}] {1}: {0}")
    @MethodSource("wrongTypes")
    void submitWithAValueOfTheWrongTypeReturnsProblemNamingTheField(String body, String field, String message)
            throws Exception {
        JsonNode problem = assertProblem(dryRun(json(body)), 400);

        assertThat(errorsOn(problem, field)).as("errors on %s in %s", field, problem)
                .anySatisfy(error -> assertThat(error.path("message").asString()).contains(message));
    }

    static Stream<Arguments> unreadableBodies() {
        return Stream.of(
                arguments("malformed JSON", "{\"entry_point\":"),
                arguments("not JSON at all", "entry_point=true"),
                arguments("empty body", ""),
                arguments("a JSON array", "[{\"entry_point\":\"true\"}]"),
                arguments("JSON null", "null"),
                arguments("a JSON string", "\"python train.py\""));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("unreadableBodies")
    void submitWithABodyThatIsNotOneJsonObjectReturnsProblem(String what, String body) throws Exception {
        JsonNode problem = assertProblem(dryRun(body), 400);

        assertThat(problem.path("detail").asString()).isNotBlank();
    }

    @Test
    void submitWithDuplicateKeyReturnsProblemNamingTheField() throws Exception {
        JsonNode problem = assertProblem(dryRun(json("{'entry_point':'true','num_gpus':1,'num_gpus':8}")), 400);

        assertThat(errorsOn(problem, "num_gpus")).isNotEmpty();
    }

    private static List<JsonNode> errorsOn(JsonNode problem, String field) {
        List<JsonNode> matching = new ArrayList<>();
        problem.path("errors").forEach(error -> {
            if (field.equals(error.path("field").asString())) {
                matching.add(error);
            }
        });
        return matching;
    }
}
