package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.RequestContract;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * The request document and the Java request are two shapes of one list of fields: flat on the wire,
 * in named parts in Java. Every field of the contract reaches the record, and the record is written
 * back (in responses and in the backends' records) under exactly the contract's names.
 */
class RequestWireFormTest {

    /** The service's JSON, as application.yaml and JacksonConfig set it up. */
    private static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .changeDefaultPropertyInclusion(include -> include.withValueInclusion(JsonInclude.Include.NON_NULL))
            .addModule(new PlanningJsonModule())
            .build();

    /** Every field of the contract, with the values of {@link JobRequests#full()}. */
    private static final String FULL = """
            {"name": "full", "entry_point": "python a.py", "pserver_entry_point": "python p.py", "image": "img:1",
             "num_gpus": 4, "num_cpus": 8, "memory": "16Gi", "trainers": 4, "trainer_cpu": 2, "trainer_gpu": 1,
             "trainer_mem": "4G", "pservers": 2, "pserver_cpu": 3, "pserver_mem": "512Mi", "port": 9000,
             "ports_num": 2, "ports_num_for_sparse": 3, "use_gpu": true, "env": {"A": "1", "B": "$x"},
             "labels": {"team": "nlp"}, "mode": "collective", "max_run_time": "90m",
             "package": "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
             "max_restarts": 3, "restart_on": ["infrastructure", 137, "stall"], "stall_timeout": "30m",
             "debug_hold": "10m", "queue": "gpu-team", "priority": "high", "account": "ml", "partition": "gpu", "qos": "normal",
             "notify": [{"url": "http://127.0.0.1:9/hook", "events": ["started", "failed"]}],
             "pserver_image": "pimg:2", "shm_size": "2Gi", "pserver_env": {"ROLE_NOTE": "ps"},
             "trainer_env": {"ROLE_NOTE": "trainer"}, "env_from_secrets": {"HDFS_PASS": {"secret": "hdfs", "key": "pass"}},
             "node_selector": {"pool": "cpu-large"},
             "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "training", "effect": "NoSchedule"}],
             "node_affinity": [{"key": "zone", "operator": "In", "values": ["a", "b"]}],
             "volumes": [{"claim": "ctr-data", "mount_path": "/mnt/data"},
                         {"config_map": "settings", "mount_path": "/etc/train"}]}
            """;

    @Test
    void theFullDocumentGivesEveryFieldOfTheContract() {
        assertThat(JSON.readTree(FULL).propertyNames()).containsExactlyInAnyOrderElementsOf(RequestContract.fields());
    }

    @Test
    void everyFieldOfTheDocumentReachesTheRequest() {
        var request = JSON.readValue(FULL, JobRequestBody.class).toRequest();
        assertThat(RequestContract.unset(request)).as("request fields the body left unset").isEmpty();
        assertThat(request).isEqualTo(JobRequests.full());
    }

    /** A run again starts from the earlier request's document: it must give back every field. */
    @Test
    void theDocumentOfARequestReadsBackToTheSameRequest() {
        var document = JobRequestBody.of(JobRequests.full());
        assertThat(JSON.readTree(JSON.writeValueAsString(document)).propertyNames())
                .containsExactlyInAnyOrderElementsOf(RequestContract.fields());
        assertThat(document.toRequest()).isEqualTo(JobRequests.full());
    }

    @Test
    void theRequestIsWrittenFlatUnderTheContractsNames() {
        var written = JSON.readTree(JSON.writeValueAsString(JobRequests.full()));
        assertThat(written.propertyNames()).containsExactlyInAnyOrderElementsOf(RequestContract.fields());
        assertThat(JSON.readValue(written.toString(), JobRequests.full().getClass())).isEqualTo(JobRequests.full());
    }

    @Test
    void theRandomRequestsChooseForEveryFieldWhetherToSendIt() {
        var chosen = new java.util.ArrayList<>(RequestGenerator.FIELDS);
        chosen.addAll(RequestGenerator.NOT_SENT);
        assertThat(chosen).containsExactlyInAnyOrderElementsOf(RequestContract.fields());
    }
}
