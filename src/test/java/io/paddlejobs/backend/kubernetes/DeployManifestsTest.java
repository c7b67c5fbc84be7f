package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.backend.kubernetes.cluster.QuotaLedger;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** {@code deploy/} as {@code kubectl kustomize} renders it (skipped where kubectl is not installed). */
@Tag("cluster")
class DeployManifestsTest {

    private static List<Map<String, Object>> objects;
    private static List<Map<String, Object>> clusterWide;
    private static List<Map<String, Object>> withPostgres;

    @BeforeAll
    static void render() throws Exception {
        assumeTrue(onPath("kubectl"), "kubectl is not installed");
        objects = kustomize("deploy/");
        clusterWide = kustomize("deploy/cluster-wide");
        withPostgres = kustomize("deploy/postgres");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> kustomize(String dir) throws Exception {
        Process kubectl = new ProcessBuilder("kubectl", "kustomize", dir).redirectErrorStream(true).start();
        String yaml = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(kubectl.exitValue()).as(yaml).isZero();
        List<Map<String, Object>> rendered = new ArrayList<>();
        new Yaml().loadAll(yaml).forEach(doc -> rendered.add((Map<String, Object>) doc));
        return rendered;
    }

    private static Map<?, ?> metadata(Map<String, Object> object) {
        return (Map<?, ?>) object.get("metadata");
    }

    private static List<PolicyRule> rulesOf(String role) {
        return objects.stream().filter(o -> "ClusterRole".equals(o.get("kind")) && role.equals(metadata(o).get("name")))
                .map(o -> Serialization.unmarshal(Serialization.asJson(o), ClusterRole.class)).findFirst().orElseThrow()
                .getRules();
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
                "ClusterRole", "ClusterRole", "ClusterRoleBinding", "RoleBinding", "ConfigMap", "Deployment",
                "PodDisruptionBudget", "Service", "NetworkPolicy", "NetworkPolicy");
        // The job pods' NetworkPolicy is the served namespace's, as the RoleBinding is.
        assertThat(objects).filteredOn(o -> !List.of("Namespace", "ClusterRole", "ClusterRoleBinding", "RoleBinding")
                .contains(o.get("kind")) && !"paddle-jobs-replicas".equals(metadata(o).get("name")))
                .allSatisfy(o -> assertThat(metadata(o).get("namespace")).isEqualTo("paddle-jobs"));
    }

    @Test
    void byDefaultTheRightToCreateWorkloadsIsGrantedOnlyInTheServedNamespaces() {
        var bindings = objects.stream().filter(o -> "ClusterRoleBinding".equals(o.get("kind")))
                .map(o -> Serialization.unmarshal(Serialization.asJson(o), io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding.class))
                .toList();
        assertThat(bindings).singleElement().satisfies(b -> assertThat(b.getRoleRef().getName()).isEqualTo("paddle-jobs-reviews"));
        var roleBinding = only("RoleBinding", io.fabric8.kubernetes.api.model.rbac.RoleBinding.class);
        assertThat(roleBinding.getMetadata().getNamespace()).isEqualTo("paddle-training");
        assertThat(roleBinding.getRoleRef().getName()).isEqualTo("paddle-jobs");
        String application = only("ConfigMap", ConfigMap.class).getData().get("application.yaml");
        assertThat(application).contains("namespaces:", "- paddle-training");
    }

    @Test
    void theClusterWideOverlayBindsTheRoleEverywhereAndServesEveryNamespace() {
        assertThat(clusterWide).filteredOn(o -> "ClusterRoleBinding".equals(o.get("kind")))
                .extracting(o -> (Object) metadata(o).get("name")).containsExactlyInAnyOrder("paddle-jobs", "paddle-jobs-reviews");
        assertThat(clusterWide).noneSatisfy(o -> assertThat(o.get("kind")).isEqualTo("RoleBinding"));
        String application = clusterWide.stream().filter(o -> "ConfigMap".equals(o.get("kind"))).findFirst().orElseThrow()
                .get("data").toString();
        assertThat(application).doesNotContain("paddle-training");
    }

    @Test
    void theRoleGrantsExactlyWhatTheBackendDoes() {
        List<PolicyRule> rules = rulesOf("paddle-jobs");
        assertThat(verbs(rules, "batch", "jobs")).containsExactlyInAnyOrder(
                "get", "list", "watch", "create", "delete", "patch");
        assertThat(verbs(rules, "", "services")).containsExactlyInAnyOrder("create", "get", "delete");
        assertThat(verbs(rules, "", "pods")).containsExactlyInAnyOrder("get", "list", "watch");
        assertThat(verbs(rules, "", "pods/log")).containsExactly("get");
        assertThat(verbs(rules, "", "persistentvolumeclaims")).containsExactly("get");
        assertThat(verbs(rules, "", "events")).containsExactly("list");
        assertThat(verbs(rules, "", "configmaps")).as("the quota ledger").containsExactlyInAnyOrder("get", "create", "update");
        assertThat(rules).filteredOn(rule -> rule.getResources().contains("configmaps") && !rule.getVerbs().contains("create"))
                .allSatisfy(rule -> assertThat(rule.getResourceNames()).containsExactly(QuotaLedger.NAME));
        assertThat(verbs(rules, "jobset.x-k8s.io", "jobsets")).containsExactlyInAnyOrder(
                "get", "list", "watch", "create", "delete", "patch");
        assertThat(verbs(rules, "kueue.x-k8s.io", "workloads")).as("read, and deactivated to stop a queued JobSet")
                .containsExactlyInAnyOrder("get", "list", "patch");
        assertThat(verbs(rules, "kueue.x-k8s.io", "localqueues")).as("read only").containsExactlyInAnyOrder("get", "list");
        assertThat(verbs(rules, "visibility.kueue.x-k8s.io", "localqueues/pendingworkloads")).as("queue positions")
                .containsExactly("get");
        assertThat(verbs(rules, "scheduling.volcano.sh", "podgroups")).containsExactlyInAnyOrder("get", "create", "delete");
        assertThat(rules).noneSatisfy(rule -> assertThat(rule.getApiGroups()).contains("apps"));
        assertThat(rules).noneSatisfy(rule -> assertThat(rule.getResources()).contains("*"));
        assertThat(rules).noneSatisfy(rule -> assertThat(rule.getResources()).contains("secrets"));
        // paddlejobs.security.mode=kubernetes: who a token is, and what the cluster lets them do to Jobs.
        List<PolicyRule> reviews = rulesOf("paddle-jobs-reviews");
        assertThat(verbs(reviews, "authentication.k8s.io", "tokenreviews")).containsExactly("create");
        assertThat(verbs(reviews, "authorization.k8s.io", "subjectaccessreviews")).containsExactly("create");
    }

    @Test
    void theServiceSurvivesADrainAndFitsItsJvmInItsMemoryLimit() {
        Deployment deployment = only("Deployment", Deployment.class);
        var pod = deployment.getSpec().getTemplate().getSpec();
        Container app = pod.getContainers().get(0);
        var pdb = only("PodDisruptionBudget", io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class);
        assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
        assertThat(deployment.getSpec().getSelector().getMatchLabels()).containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
        assertThat(pod.getTopologySpreadConstraints()).singleElement()
                .satisfies(c -> assertThat(c.getTopologyKey()).isEqualTo("kubernetes.io/hostname"));
        assertThat(app.getResources().getLimits().get("memory")).isEqualTo(new io.fabric8.kubernetes.api.model.Quantity("1Gi"));
        assertThat(app.getEnv()).anySatisfy(e -> assertThat(e.getValue()).contains("MaxRAMPercentage=50", "ExitOnOutOfMemoryError"));
        assertThat(app.getLifecycle().getPreStop().getExec().getCommand()).containsExactly("sleep", "5");
        assertThat(pod.getTerminationGracePeriodSeconds()).isGreaterThan(35L);
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

    /**
     * Round 3's M6: the root file system is read-only, so the data root (the webhook outbox, the embedded
     * history) is a volume, where the service's defaults put both.
     */
    @Test
    void theDataRootWhereTheOutboxAndHistoryAreIsAWritableVolume() {
        Deployment deployment = only("Deployment", Deployment.class);
        Container app = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(app.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(app.getVolumeMounts()).filteredOn(m -> m.getMountPath().equals("/app/data"))
                .singleElement().satisfies(mount -> assertThat(mount.getReadOnly()).isNotEqualTo(Boolean.TRUE));
    }

    /**
     * Both replicas share one history: the database comes from the operator's Secret, as files (a Spring config
     * tree), never in the environment; the rest is deploy/ unchanged.
     */
    @Test
    void thePostgresOverlayGivesTheServiceItsDatabaseFromASecretAsFilesAndChangesNothingElse() {
        Map<String, Object> deployment = withPostgres.stream().filter(o -> "Deployment".equals(o.get("kind")))
                .findFirst().orElseThrow();
        var pod = Serialization.unmarshal(Serialization.asJson(deployment), Deployment.class).getSpec().getTemplate()
                .getSpec();
        Container app = pod.getContainers().get(0);
        assertThat(app.getEnv()).noneMatch(e -> e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null);
        assertThat(app.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("SPRING_CONFIG_IMPORT");
            assertThat(e.getValue()).isEqualTo("configtree:/etc/paddle-jobs/history/");
        });
        assertThat(pod.getVolumes()).filteredOn(v -> v.getSecret() != null).singleElement().satisfies(v -> {
            assertThat(v.getSecret().getSecretName()).isEqualTo("paddle-jobs-history");
            assertThat(v.getSecret().getItems()).extracting(i -> i.getKey() + "->" + i.getPath()).containsExactly(
                    "url->spring.datasource.url", "username->spring.datasource.username",
                    "password->spring.datasource.password");
        });
        Container plain = only("Deployment", Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(app.getEnv()).containsAll(plain.getEnv());
        assertThat(withPostgres).hasSameSizeAs(objects);
    }

    /** kube-score's criticals that are real: every pod's writes are bounded, and a NetworkPolicy selects the service. */
    @Test
    void theServiceWritesOnlyBoundedVolumesAndANetworkPolicySelectsIt() {
        var pod = only("Deployment", Deployment.class).getSpec().getTemplate().getSpec();
        assertThat(pod.getVolumes()).filteredOn(v -> v.getEmptyDir() != null).isNotEmpty()
                .allSatisfy(v -> assertThat(v.getEmptyDir().getSizeLimit()).as(v.getName()).isNotNull());
        var resources = pod.getContainers().get(0).getResources();
        assertThat(resources.getRequests()).containsKey("ephemeral-storage");
        assertThat(resources.getLimits()).containsKey("ephemeral-storage");
        assertThat(objects).filteredOn(o -> "NetworkPolicy".equals(o.get("kind")))
                .extracting(o -> metadata(o).get("namespace") + "/" + metadata(o).get("name"))
                .contains("paddle-jobs/paddle-jobs", "paddle-training/paddle-jobs-replicas");
    }

    private static List<String> verbs(List<PolicyRule> rules, String group, String resource) {
        return rules.stream().filter(r -> r.getApiGroups().contains(group) && r.getResources().contains(resource))
                .flatMap(r -> r.getVerbs().stream()).toList();
    }
}
