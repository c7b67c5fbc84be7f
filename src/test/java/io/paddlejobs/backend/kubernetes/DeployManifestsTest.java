package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** {@code deploy/} as {@code kubectl kustomize} renders it (skipped where kubectl is not installed). */
class DeployManifestsTest {

    private static List<Map<String, Object>> objects;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void render() throws Exception {
        assumeTrue(onPath("kubectl"), "kubectl is not installed");
        Process kubectl = new ProcessBuilder("kubectl", "kustomize", "deploy/").redirectErrorStream(true).start();
        String yaml = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(kubectl.exitValue()).as(yaml).isZero();
        objects = new ArrayList<>();
        new Yaml().loadAll(yaml).forEach(doc -> objects.add((Map<String, Object>) doc));
    }

    private static boolean onPath(String command) {
        String path = System.getenv("PATH");
        return path != null && java.util.Arrays.stream(path.split(File.pathSeparator))
                .anyMatch(dir -> new File(dir, command).canExecute());
    }

    private static <T> T only(String kind, Class<T> type) {
        var matching = objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
        assertThat(matching).as(kind).hasSize(1);
        return Serialization.unmarshal(Serialization.asJson(matching.get(0)), type);
    }

    @Test
    void rendersTheServiceWithItsOwnNamespaceAccountAndPermissions() {
        assertThat(objects).extracting(o -> o.get("kind")).containsExactlyInAnyOrder("Namespace", "ServiceAccount",
                "ClusterRole", "ClusterRoleBinding", "ConfigMap", "Deployment", "Service");
        assertThat(objects).filteredOn(o -> !List.of("Namespace", "ClusterRole", "ClusterRoleBinding").contains(o.get("kind")))
                .allSatisfy(o -> assertThat(((Map<?, ?>) o.get("metadata")).get("namespace")).isEqualTo("paddle-jobs"));
    }

    @Test
    void theRoleGrantsExactlyWhatTheBackendAndKubernetesSecurityModeDo() {
        List<PolicyRule> rules = only("ClusterRole", ClusterRole.class).getRules();
        assertThat(verbs(rules, "batch", "jobs")).containsExactlyInAnyOrder(
                "get", "list", "watch", "create", "delete", "patch", "update");
        assertThat(verbs(rules, "apps", "statefulsets")).containsExactlyInAnyOrder(
                "get", "list", "watch", "create", "delete", "patch", "update");
        assertThat(verbs(rules, "", "services")).containsExactlyInAnyOrder("create", "get", "list", "watch", "delete");
        assertThat(verbs(rules, "", "pods")).containsExactlyInAnyOrder("get", "list", "watch");
        assertThat(verbs(rules, "", "pods/log")).containsExactly("get");
        assertThat(verbs(rules, "", "events")).containsExactly("list");
        // paddlejobs.security.mode=kubernetes: who a token is, and what the cluster lets them do to Jobs.
        assertThat(verbs(rules, "authentication.k8s.io", "tokenreviews")).containsExactly("create");
        assertThat(verbs(rules, "authorization.k8s.io", "subjectaccessreviews")).containsExactly("create");
        assertThat(rules).noneSatisfy(rule -> assertThat(rule.getResources()).contains("*"));
        assertThat(rules).noneSatisfy(rule -> assertThat(rule.getResources()).contains("secrets"));
    }

    @Test
    void theDeploymentRunsTwoRestrictedReplicasProbedByTheirHealthGroups() {
        Deployment deployment = only("Deployment", Deployment.class);
        var pod = deployment.getSpec().getTemplate().getSpec();
        Container app = pod.getContainers().get(0);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(pod.getServiceAccountName()).isEqualTo("paddle-jobs");
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(app.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(app.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(app.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
        assertThat(app.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
        assertThat(app.getResources().getLimits()).containsKey("memory");
    }

    @Test
    void theConfigurationSelectsTheKubernetesBackendAndSecurityListeningOnEveryInterface() {
        ConfigMap config = only("ConfigMap", ConfigMap.class);
        String application = config.getData().get("application.yaml");
        Map<String, Object> settings = new Yaml().load(application);
        assertThat(settings).extractingByKey("paddlejobs").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("backend", "kubernetes")
                .containsEntry("security", Map.of("mode", "kubernetes"));
        assertThat(settings).extractingByKey("server").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("address", "0.0.0.0");
        Deployment deployment = only("Deployment", Deployment.class);
        assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes()).filteredOn(v -> v.getConfigMap() != null)
                .anySatisfy(v -> assertThat(v.getConfigMap().getName()).isEqualTo(config.getMetadata().getName()));
    }

    private static List<String> verbs(List<PolicyRule> rules, String group, String resource) {
        return rules.stream().filter(r -> r.getApiGroups().contains(group) && r.getResources().contains(resource))
                .flatMap(r -> r.getVerbs().stream()).toList();
    }
}
