package io.paddlejobs.cluster;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok as local processes,
 * every one listening on 127.0.0.1 only (the controller manager and the scheduler serve nothing).
 * Started in dependency order, each waited for on a readiness condition with a deadline.
 */
public final class ControlPlane {

    /** What the controller manager runs: what jobs need, and what those controllers need. */
    static final List<String> CONTROLLERS = List.of("job-controller", "statefulset-controller",
            "garbage-collector-controller", "ttl-after-finished-controller", "resourcequota-controller",
            "serviceaccount-token-controller", "serviceaccount-controller", "namespace-controller",
            "persistentvolume-binder-controller", "root-ca-certificate-publisher-controller");

    /** The namespace whose pods have a log ({@link #podLogFile}); kwok's other pods print none. */
    public static final String POD_LOGS_NAMESPACE = "pod-logs";

    private static final String KWOK_API = "kwok.x-k8s.io/v1alpha1";
    private static final Duration START_DEADLINE = Duration.ofMinutes(2);

    private final Path bin;
    private final ClusterFiles files;
    private final int etcdPort = freePort();
    private final int etcdPeerPort = freePort();
    private final int apiPort = freePort();
    /** Where kwok serves what a kubelet serves the API server (pod logs), for every fake node. */
    private final int kubeletPort = freePort();
    private final List<LocalProcess> processes = new ArrayList<>();
    private LocalProcess apiServer;
    private KubernetesClient admin;

    private ControlPlane(Path bin, ClusterFiles files) {
        this.bin = bin;
        this.files = files;
    }

    static ControlPlane start(Path bin, Path workDir) throws IOException {
        ControlPlane plane = new ControlPlane(bin, ClusterFiles.create(workDir));
        try {
            plane.startAll();
        } catch (RuntimeException | IOException e) {
            plane.stop();
            throw e;
        }
        return plane;
    }

    private void startAll() throws IOException {
        run("etcd", List.of(bin.resolve("etcd").toString(), "--name=default",
                "--data-dir=" + files.etcdData(), "--listen-client-urls=" + etcdUrl(), "--advertise-client-urls=" + etcdUrl(),
                "--listen-peer-urls=http://127.0.0.1:" + etcdPeerPort,
                "--initial-advertise-peer-urls=http://127.0.0.1:" + etcdPeerPort,
                "--initial-cluster=default=http://127.0.0.1:" + etcdPeerPort,
                "--unsafe-no-fsync=true", "--log-level=warn"));
        awaitReady(() -> get(etcdUrl() + "/health").contains("true"));

        apiServer = run("kube-apiserver", apiServerCommand());
        awaitApiServer();

        run("kube-controller-manager", List.of(bin.resolve("kube-controller-manager").toString(),
                "--kubeconfig=" + files.kubeconfig("kube-controller-manager", masterUrl(), files.controllerManagerToken()),
                "--leader-elect=false", "--secure-port=0", "--controllers=" + String.join(",", CONTROLLERS),
                "--service-account-private-key-file=" + files.serviceAccountKey(), "--root-ca-file=" + files.caFile(),
                // Its client's own default rate, 20 requests/s, is what a cluster of a few hundred jobs waits on (the Job
                // controller's pod creates, status updates and finalizer patches); clusters at scale raise it.
                "--concurrent-job-syncs=2", "--kube-api-qps=100", "--kube-api-burst=200", "--v=1"));
        run("kube-scheduler", List.of(bin.resolve("kube-scheduler").toString(),
                "--kubeconfig=" + files.kubeconfig("kube-scheduler", masterUrl(), files.schedulerToken()),
                "--leader-elect=false", "--secure-port=0", "--v=1"));
        // Before kwok, which watches its Logs from the start: a test gives a single pod a log of its own with one.
        Crds.install(admin, files.kwokCrds());
        run("kwok", List.of(bin.resolve("kwok").toString(),
                "--kubeconfig=" + files.kubeconfig("kwok", masterUrl(), files.kwokToken()),
                "--manage-nodes-with-label-selector=" + FakeNodes.MANAGED_LABEL + "=true",
                "--config=" + files.stages(), "--config=" + files.podLogRules(), "--enable-crds=Logs", "--cidr=10.244.0.0/16",
                "--node-ip=127.0.0.1", "--node-port=" + kubeletPort, "--server-address=127.0.0.1:" + kubeletPort,
                // The API server's own serving certificate: it checks no kubelet's certificate without
                // --kubelet-certificate-authority.
                "--tls-cert-file=" + files.caFile(), "--tls-private-key-file=" + files.certDir().resolve("apiserver.key")));
        // The service-account controller making "default" in every namespace shows the controller manager works.
        awaitReady(() -> admin.serviceAccounts().inNamespace("default").withName("default").get() != null);
    }

    private List<String> apiServerCommand() {
        return List.of(bin.resolve("kube-apiserver").toString(), "--etcd-servers=" + etcdUrl(),
                "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--secure-port=" + apiPort,
                "--cert-dir=" + files.certDir(), "--token-auth-file=" + files.tokens(),
                "--authorization-mode=RBAC", "--service-account-issuer=" + masterUrl(),
                "--service-account-key-file=" + files.serviceAccountPublicKey(),
                "--service-account-signing-key-file=" + files.serviceAccountKey(),
                "--service-cluster-ip-range=10.96.0.0/24",
                // The front proxy: how it tells aggregated API servers (Kueue's visibility API) who is asking.
                "--proxy-client-cert-file=" + files.frontProxyClientCert(), "--proxy-client-key-file=" + files.frontProxyClientKey(),
                "--requestheader-client-ca-file=" + files.frontProxyCa(),
                "--requestheader-allowed-names=" + ClusterFiles.FRONT_PROXY_CLIENT,
                "--requestheader-username-headers=X-Remote-User", "--requestheader-group-headers=X-Remote-Group",
                "--requestheader-extra-headers-prefix=X-Remote-Extra-",
                // It taints new nodes not-ready, and only the node-lifecycle controller, which needs kubelet
                // heartbeats, would lift it; kwok's nodes are ready the moment it has seen them.
                "--disable-admission-plugins=TaintNodesByCondition",
                // Service names must be DNS-1035 labels on every release before 1.36, where this gate
                // became beta and on; judge our objects by the rule most clusters still apply.
                "--feature-gates=RelaxedServiceNameValidation=false",
                // The apiserver would publish 127.0.0.1 as the kubernetes Service's endpoint, which validation refuses.
                "--endpoint-reconciler-type=none", "--profiling=false",
                // A fake node's hostname resolves nowhere; kwok serves its kubelet's port on its InternalIP.
                "--kubelet-preferred-address-types=InternalIP", "--v=1");
    }

    private void awaitApiServer() {
        awaitReady(() -> Files.exists(files.caFile()));
        if (admin == null) {
            admin = new KubernetesClientBuilder().withConfig(config(files.adminToken())).build();
        }
        awaitReady(() -> "ok".equals(admin.raw("/readyz")));
    }

    /** A client configuration for a bearer token, trusting the API server's CA. */
    public Config config(String token) {
        return new ConfigBuilder(Config.empty()).withMasterUrl(masterUrl()).withCaCertFile(files.caFile().toString())
                .withOauthToken(token).withRequestRetryBackoffLimit(0).build();
    }

    public String masterUrl() {
        return "https://127.0.0.1:" + apiPort;
    }

    /** A token of a cluster admin (group system:masters). */
    public String adminToken() {
        return files.adminToken();
    }

    public KubernetesClient admin() {
        return admin;
    }

    /**
     * The log every pod of {@link #POD_LOGS_NAMESPACE} has, as kwok serves it through the API server
     * ({@code GET .../pods/NAME/log}), read at each request: in the CRI's format, one line per
     * {@code 2026-01-01T00:00:00Z stdout F <text>}. A test writes it before it reads a pod's log.
     */
    public Path podLogFile() {
        return files.podLogFile();
    }

    /**
     * Gives one pod a log of its own, whatever its namespace, as kwok serves it through the API server from now on
     * (a moment later: kwok watches its {@code Logs}): these lines, as its program would have printed them. A pod
     * of {@link #POD_LOGS_NAMESPACE} has this log instead of the namespace's. Gone with the pod's namespace.
     */
    public void printLog(Pod pod, String... lines) throws IOException {
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        Path file = files.podLogs().resolve(namespace + "_" + name + ".log");
        Files.writeString(file, criLines(lines));
        admin.genericKubernetesResources(KWOK_API, "Logs").inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion(KWOK_API).withKind("Logs").withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .addToAdditionalProperties("spec", Map.of("logs", List.of(Map.of("containers", List.of(), "logsFile", file.toString()))))
                .build()).create();
    }

    /** Lines as a container runtime writes a container's log (the CRI's format), which kwok serves. */
    public static String criLines(String... lines) {
        StringBuilder log = new StringBuilder();
        for (String line : lines) {
            log.append("2026-01-01T00:00:00.000000000Z stdout F ").append(line).append('\n');
        }
        return log.toString();
    }

    /** Its credentials and files: controllers started beside it (Kueue, JobSet) use them too. */
    ClusterFiles files() {
        return files;
    }

    static int freeLoopbackPort() {
        return freePort();
    }

    /** Stops kube-apiserver alone (etcd keeps the state), as in an outage of the API server. */
    public void stopApiServer() {
        apiServer.stop();
    }

    /** Starts kube-apiserver again on the same port with the same state, and waits until it is ready. */
    public void startApiServer() {
        apiServer.start();
        awaitApiServer();
    }

    /** Resident memory of each program in MiB. */
    public Map<String, Long> residentMiB() {
        Map<String, Long> rss = new LinkedHashMap<>();
        processes.forEach(p -> rss.put(p.name(), p.rssKiB() / 1024));
        return rss;
    }

    void stop() {
        if (admin != null) {
            admin.close();
        }
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).stop();
        }
    }

    private LocalProcess run(String name, List<String> command) {
        LocalProcess process = LocalProcess.start(name, command, files.dir());
        processes.add(process);
        return process;
    }

    /** Waits for a condition, failing at once (with its output) when a program of the control plane has died. */
    private void awaitReady(java.util.concurrent.Callable<Boolean> ready) {
        await().atMost(START_DEADLINE).pollInterval(Duration.ofMillis(200)).until(() -> {
            processes.forEach(LocalProcess::checkAlive);
            try {
                return ready.call();
            } catch (Exception notYet) {
                return false;
            }
        });
    }

    private String etcdUrl() {
        return "http://127.0.0.1:" + etcdPort;
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static String get(String url) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
