package io.paddlejobs.cluster;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.APIService;
import io.fabric8.kubernetes.api.model.APIServiceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The Kueue and JobSet controllers of .ci/prepare-kueue, run as local processes against a
 * {@link ControlPlane}, with their CRDs installed and their admission (and Kueue's conversion)
 * webhooks served on 127.0.0.1. The webhook servers present the API server's own self-made
 * certificate (it is valid for 127.0.0.1), so the webhook configurations trust its CA and call
 * {@code https://127.0.0.1:<port><path>}: no certificate of our own making, no Service, no
 * cert-manager, and the controllers' in-cluster certificate rotation is off.
 *
 * <p>Kueue's visibility API (an aggregated API server of its own, which tells queue positions) is
 * served on 127.0.0.1 too and registered with the API server as Kueue's own manifests do (an
 * APIService, not verifying the server's certificate), through a Service of type ExternalName
 * naming {@code localhost}: the API server refuses 127.0.0.1 as a Service's endpoint, but resolves
 * an ExternalName itself. It trusts the API server's front proxy certificate ({@link ClusterFiles}).
 * Kueue manages the integrations {@code batch/job} and {@code jobset.x-k8s.io/jobset}, and only
 * objects with a queue name (its default); the webhooks of the integrations it does not run are not
 * installed, as they would refuse every object they are called for.
 */
final class KueueControllers {

    private static final String VISIBILITY_GROUP = "visibility.kueue.x-k8s.io";
    private static final Duration START_DEADLINE = Duration.ofMinutes(3);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final List<LocalProcess> processes = new ArrayList<>();

    private KueueControllers() {
    }

    static KueueControllers start(ControlPlane plane, Path dir) throws IOException {
        KueueControllers controllers = new KueueControllers();
        try {
            controllers.startAll(plane, dir);
        } catch (IOException | RuntimeException e) {
            controllers.stop();
            throw e;
        }
        return controllers;
    }

    private void startAll(ControlPlane plane, Path dir) throws IOException {
        KubernetesClient admin = plane.admin();
        ClusterFiles files = plane.files();
        Crds.install(admin, dir.resolve("crds"));
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("kueue-system").endMetadata().build())
                .serverSideApply();
        Path certs = Files.createDirectories(files.dir().resolve("webhook-certs"));
        Files.copy(files.caFile(), certs.resolve("tls.crt"));
        Files.copy(files.certDir().resolve("apiserver.key"), certs.resolve("tls.key"));
        String caBundle = Base64.getEncoder().encodeToString(Files.readAllBytes(files.caFile()));
        Path kubeconfig = files.kubeconfig("controllers", plane.masterUrl(), files.adminToken());

        int jobsetWebhook = ControlPlane.freeLoopbackPort();
        int jobsetHealth = ControlPlane.freeLoopbackPort();
        Path jobsetConfig = files.dir().resolve("jobset-config.yaml");
        Files.writeString(jobsetConfig, """
                apiVersion: config.jobset.x-k8s.io/v1alpha1
                kind: Configuration
                leaderElection:
                  leaderElect: false
                internalCertManagement:
                  enable: false
                health:
                  healthProbeBindAddress: 127.0.0.1:%d
                metrics:
                  bindAddress: "0"
                webhook:
                  host: 127.0.0.1
                  port: %d
                  certDir: %s
                """.formatted(jobsetHealth, jobsetWebhook, certs));
        processes.add(LocalProcess.start("jobset", List.of(dir.resolve("bin/jobset").toString(),
                "--kubeconfig=" + kubeconfig, "--config=" + jobsetConfig), files.dir()));

        int kueueWebhook = ControlPlane.freeLoopbackPort();
        int kueueHealth = ControlPlane.freeLoopbackPort();
        int visibilityPort = ControlPlane.freeLoopbackPort();
        Path kueueConfig = files.dir().resolve("kueue-config.yaml");
        Files.writeString(kueueConfig, """
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                namespace: kueue-system
                leaderElection:
                  leaderElect: false
                internalCertManagement:
                  enable: false
                health:
                  healthProbeBindAddress: 127.0.0.1:%d
                metrics:
                  bindAddress: "0"
                webhook:
                  host: 127.0.0.1
                  port: %d
                  certDir: %s
                visibilityServer:
                  bindAddress: 127.0.0.1
                  bindPort: %d
                integrations:
                  frameworks:
                  - batch/job
                  - jobset.x-k8s.io/jobset
                """.formatted(kueueHealth, kueueWebhook, certs, visibilityPort));
        // Without its own certificate management Kueue reads its metrics certificate from a fixed
        // path, /etc/kueue/metrics/certs, and its visibility server's from /visibility: bubblewrap shows
        // it ours there, in a mount namespace of its own (network and everything else are shared).
        List<String> command = new ArrayList<>(List.of("bwrap", "--die-with-parent"));
        command.addAll(SandboxRoot.hostEntries());
        command.addAll(List.of("--tmpfs", "/etc/kueue", "--ro-bind", certs.toString(), "/etc/kueue/metrics/certs",
                "--ro-bind", certs.toString(), "/visibility", "--",
                dir.resolve("bin/kueue").toString(), "--kubeconfig=" + kubeconfig, "--config=" + kueueConfig));
        processes.add(LocalProcess.start("kueue", command, files.dir()));

        awaitReady(() -> ok("http://127.0.0.1:" + jobsetHealth + "/readyz") && ok("http://127.0.0.1:" + kueueHealth + "/readyz"));
        convertThrough(admin, "kueue.x-k8s.io", url(kueueWebhook, "/convert"), caBundle);
        installWebhooks(admin, dir.resolve("webhooks/jobset.yaml"), "jobset-", jobsetWebhook, caBundle, path -> true);
        installWebhooks(admin, dir.resolve("webhooks/kueue.yaml"), "kueue-", kueueWebhook, caBundle,
                path -> path.contains("kueue-x-k8s-io") || path.equals("/mutate-batch-v1-job")
                        || path.equals("/validate-batch-v1-job") || path.contains("jobset-x-k8s-io"));
        // A dry-run create goes through both controllers' webhooks: once it passes, they serve.
        awaitReady(() -> {
            admin.resource(KueueQueues.object("ResourceFlavor", "probe", null, Map.of())).dryRun().create();
            return true;
        });
        registerVisibilityApi(admin, visibilityPort);
    }

    private void registerVisibilityApi(KubernetesClient admin, int port) {
        admin.services().inNamespace("kueue-system").resource(new ServiceBuilder().withNewMetadata()
                .withName("visibility-server").endMetadata().withNewSpec().withType("ExternalName")
                .withExternalName("localhost").endSpec().build()).serverSideApply();
        for (String version : List.of("v1beta1", "v1beta2")) {
            admin.resource(new APIServiceBuilder().withNewMetadata().withName(version + "." + VISIBILITY_GROUP).endMetadata()
                    .withNewSpec().withGroup(VISIBILITY_GROUP).withVersion(version).withGroupPriorityMinimum(100)
                    .withVersionPriority(100).withInsecureSkipTLSVerify(true)
                    .withNewService().withNamespace("kueue-system").withName("visibility-server").withPort(port).endService()
                    .endSpec().build()).serverSideApply();
        }
        awaitReady(() -> admin.resources(APIService.class).list().getItems().stream()
                .filter(api -> VISIBILITY_GROUP.equals(api.getSpec().getGroup()))
                .allMatch(api -> api.getStatus() != null && api.getStatus().getConditions() != null && api.getStatus()
                        .getConditions().stream().anyMatch(c -> "Available".equals(c.getType()) && "True".equals(c.getStatus()))));
    }

    /** Kueue serves several versions of its kinds and converts between them itself. */
    private static void convertThrough(KubernetesClient admin, String group, String url, String caBundle) {
        for (CustomResourceDefinition crd : admin.apiextensions().v1().customResourceDefinitions().list().getItems()) {
            if (!crd.getSpec().getGroup().equals(group) || crd.getSpec().getVersions().size() < 2) {
                continue;
            }
            crd.getSpec().setConversion(new CustomResourceConversionBuilder().withStrategy("Webhook")
                    .withNewWebhook().withConversionReviewVersions("v1")
                    .withNewClientConfig().withUrl(url).withCaBundle(caBundle).endClientConfig()
                    .endWebhook().build());
            crd.getMetadata().setManagedFields(null);
            crd.getMetadata().setResourceVersion(null);
            admin.apiextensions().v1().customResourceDefinitions().resource(crd).update();
        }
    }

    private static void installWebhooks(KubernetesClient admin, Path manifests, String prefix, int port, String caBundle,
                                        Predicate<String> served) throws IOException {
        List<HasMetadata> objects;
        try (InputStream in = Files.newInputStream(manifests)) {
            objects = admin.load(in).items();
        }
        for (HasMetadata object : objects) {
            object.getMetadata().setName(prefix + object.getMetadata().getName());
            if (object instanceof MutatingWebhookConfiguration mutating) {
                List<MutatingWebhook> kept = new ArrayList<>();
                for (MutatingWebhook hook : mutating.getWebhooks()) {
                    String path = hook.getClientConfig().getService().getPath();
                    if (served.test(path)) {
                        hook.setClientConfig(clientConfig(port, path, caBundle));
                        hook.setObjectSelector(podsOfJobSets(path, hook.getObjectSelector()));
                        kept.add(hook);
                    }
                }
                mutating.setWebhooks(kept);
            } else if (object instanceof ValidatingWebhookConfiguration validating) {
                List<ValidatingWebhook> kept = new ArrayList<>();
                for (ValidatingWebhook hook : validating.getWebhooks()) {
                    String path = hook.getClientConfig().getService().getPath();
                    if (served.test(path)) {
                        hook.setClientConfig(clientConfig(port, path, caBundle));
                        hook.setObjectSelector(podsOfJobSets(path, hook.getObjectSelector()));
                        kept.add(hook);
                    }
                }
                validating.setWebhooks(kept);
            }
            admin.resource(object).serverSideApply();
        }
    }

    /** JobSet's pod webhooks are for its own pods only (its kustomize patch says so; the plain manifest does not). */
    private static io.fabric8.kubernetes.api.model.LabelSelector podsOfJobSets(String path,
                                                                             io.fabric8.kubernetes.api.model.LabelSelector given) {
        if (!path.endsWith("--v1-pod")) {
            return given;
        }
        return new LabelSelectorBuilder().addNewMatchExpression().withKey("jobset.sigs.k8s.io/jobset-name")
                .withOperator("Exists").endMatchExpression().build();
    }

    private static WebhookClientConfig clientConfig(int port, String path, String caBundle) {
        return new WebhookClientConfigBuilder().withUrl(url(port, path)).withCaBundle(caBundle).build();
    }

    private static String url(int port, String path) {
        return "https://127.0.0.1:" + port + path;
    }

    void stop() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).stop();
        }
    }

    private void awaitReady(java.util.concurrent.Callable<Boolean> ready) {
        await().atMost(START_DEADLINE).pollInterval(Duration.ofMillis(500)).until(() -> {
            processes.forEach(LocalProcess::checkAlive);
            try {
                return ready.call();
            } catch (Exception notYet) {
                return false;
            }
        });
    }

    private static boolean ok(String url) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    }
}
