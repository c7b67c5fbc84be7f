package io.paddlejobs.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.Kubeconfig;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.RestrictedNamespaces;
import io.paddlejobs.cluster.ServiceAccounts;
import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The image as deploy/ runs it, against the real control plane of the cluster tests: the
 * Deployment's environment and arguments, deploy/'s application.yaml mounted at /config, /tmp on a
 * volume of its own, no capabilities, and deploy/'s ServiceAccount (its token in a
 * mounted kubeconfig, as the pod's own would be) serving a namespace through deploy/'s RoleBinding.
 */
@Tag("image")
@Tag("cluster")
class ImageOnKubernetesTest {

    private static final Path DEPLOY = Path.of("deploy", "base");
    private static final Duration JOB_DEADLINE = Duration.ofMinutes(3);

    private static ImageContainer service;
    private static Path kube;
    private static String ns;
    private static String userToken;

    @BeforeAll
    static void startAsDeployRunsIt() throws IOException {
        PreparedImage.dir();
        ControlPlane plane = RealCluster.plane();
        KubernetesClient admin = plane.admin();
        String serviceToken = ServiceAccounts.deployedServiceToken(admin);
        ns = RestrictedNamespaces.create(admin, "image", Settings.defaults(KubernetesProperties.class).dataClaim());
        ServiceAccounts.serve(admin, ns);
        userToken = ServiceAccounts.jobsUser(admin, ns, "trainer", List.of("get", "list", "watch", "create", "delete"));
        kube = kubeconfig(plane, serviceToken);

        Container deployed = deployedContainer();
        // Like the Deployment's pod, but for its read-only root file system (buildah run has none).
        List<String> options = new ArrayList<>(List.of("--mount=type=tmpfs,destination=/tmp", "--cap-drop=all",
                "--user=10001:10001", "--volume=" + kube.toAbsolutePath() + ":/kube:ro", "--env=KUBECONFIG=/kube/config",
                "--volume=" + DEPLOY.resolve("application.yaml").toAbsolutePath() + ":/config/application.yaml:ro"));
        for (EnvVar env : deployed.getEnv()) {
            options.add("--env=" + env.getName() + "=" + env.getValue());
        }
        List<String> arguments = new ArrayList<>(deployed.getArgs());
        // The cluster's served namespace, as an operator lists it (deploy/ names paddle-training).
        arguments.add("--paddlejobs.kubernetes.namespaces=" + ns);
        service = ImageContainer.start(options, arguments);
    }

    @AfterAll
    static void stop() throws IOException {
        if (service != null) {
            service.close();
        }
        if (kube != null) {
            try (var files = Files.list(kube)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(kube);
        }
    }

    @Test
    void itBecomesReadyOnTheKubernetesBackendAndRefusesCallersWithoutAToken() {
        ServiceClient anonymous = service.client();

        assertThat(anonymous.getJson("/actuator/health/readiness").path("status").asString()).isEqualTo("UP");
        assertThat(anonymous.get("/jobs?namespace=" + ns, "application/json").statusCode()).isEqualTo(401);
    }

    @Test
    void aCallerWithAClusterTokenSubmitsAJobThatRunsOnTheCluster() {
        ServiceClient user = service.client().withToken(userToken);

        user.submit("{\"name\": \"from-the-image\", \"entry_point\": \"python train.py\", \"num_cpus\": 1}", ns);

        user.awaitPhase("from-the-image", ns, "Succeeded", JOB_DEADLINE);
        assertThat(RealCluster.plane().admin().batch().v1().jobs().inNamespace(ns).list().getItems())
                .anySatisfy(job -> assertThat(job.getMetadata().getName()).startsWith("from-the-image"));
    }

    /** The Deployment's one container as deploy/base/deployment.yaml states it. */
    private static Container deployedContainer() throws IOException {
        try (InputStream yaml = Files.newInputStream(DEPLOY.resolve("deployment.yaml"))) {
            return Serialization.unmarshal(yaml, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
        }
    }

    /** A kubeconfig for the service's token with the API server's CA beside it, readable by the image's user. */
    private static Path kubeconfig(ControlPlane plane, String token) throws IOException {
        Path dir = Files.createTempDirectory("paddle-jobs-image-kube-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.copy(Path.of(plane.config(token).getCaCertFile()), dir.resolve("ca.crt"));
        Files.writeString(dir.resolve("config"), Kubeconfig.yaml(plane.masterUrl(), "/kube/ca.crt", "paddle-jobs", token));
        for (String file : List.of("ca.crt", "config")) {
            Files.setPosixFilePermissions(dir.resolve(file), PosixFilePermissions.fromString("rw-r--r--"));
        }
        return dir;
    }
}
