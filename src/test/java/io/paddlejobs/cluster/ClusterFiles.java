package io.paddlejobs.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * The control plane's credentials and configuration files, all made afresh in one work
 * directory per run: bearer tokens (a static token file: the simplest authenticator that still
 * goes through authorization), the service-account signing key, kubeconfigs and kwok's stages.
 * The API server makes its own serving certificate and CA in {@link #certDir()}, valid for
 * 127.0.0.1; everything else trusts that CA. The one pair it cannot make itself is the front proxy's
 * (a CA and the client certificate it presents to aggregated API servers, such as Kueue's
 * visibility API): {@code openssl} makes those, valid for a day.
 */
record ClusterFiles(Path dir, String adminToken, String controllerManagerToken, String schedulerToken,
                    String kwokToken) {

    /** The name in the front proxy's client certificate, the one the API server's aggregated servers accept. */
    static final String FRONT_PROXY_CLIENT = "front-proxy-client";

    static ClusterFiles create(Path dir) throws IOException {
        ClusterFiles files = new ClusterFiles(dir, token(), token(), token(), token());
        Files.createDirectories(files.certDir());
        // Every component is a cluster admin: the tests judge the service's permissions, not theirs.
        Files.writeString(files.tokens(), String.join("\n",
                files.adminToken + ",cluster-admin,cluster-admin,system:masters",
                files.controllerManagerToken + ",system:kube-controller-manager,kcm,system:masters",
                files.schedulerToken + ",system:kube-scheduler,scheduler,system:masters",
                files.kwokToken + ",kwok,kwok,system:masters") + "\n");
        files.writeSigningKey();
        files.writeFrontProxyCertificates();
        try (InputStream stages = ClusterFiles.class.getResourceAsStream("kwok-stages.yaml")) {
            Files.write(files.stages(), stages.readAllBytes());
        }
        Files.createDirectories(files.kwokCrds());
        try (InputStream logs = ClusterFiles.class.getResourceAsStream("kwok-logs-crd.yaml")) {
            Files.write(files.kwokCrds().resolve("logs.yaml"), logs.readAllBytes());
        }
        Files.createDirectories(files.podLogs());
        Files.writeString(files.podLogFile(), "");
        Files.writeString(files.podLogRules(), """
                apiVersion: kwok.x-k8s.io/v1alpha1
                kind: ClusterLogs
                metadata:
                  name: pod-logs
                spec:
                  selector:
                    matchNamespaces: [%s]
                  logs:
                  - containers: []
                    logsFile: %s
                """.formatted(ControlPlane.POD_LOGS_NAMESPACE, files.podLogFile()));
        return files;
    }

    Path tokens() {
        return dir.resolve("tokens.csv");
    }

    Path serviceAccountKey() {
        return dir.resolve("service-account.key");
    }

    Path serviceAccountPublicKey() {
        return dir.resolve("service-account.pub");
    }

    Path certDir() {
        return dir.resolve("apiserver-certs");
    }

    /** The API server's self-made certificate followed by its CA: what clients trust. */
    Path caFile() {
        return certDir().resolve("apiserver.crt");
    }

    /** The CA that aggregated API servers trust for the identity the API server forwards in its headers. */
    Path frontProxyCa() {
        return certDir().resolve("front-proxy-ca.crt");
    }

    Path frontProxyClientCert() {
        return certDir().resolve("front-proxy-client.crt");
    }

    Path frontProxyClientKey() {
        return certDir().resolve("front-proxy-client.key");
    }

    Path stages() {
        return dir.resolve("kwok-stages.yaml");
    }

    Path podLogFile() {
        return dir.resolve("pod-logs.log");
    }

    /** The kwok resources it reads from the API server rather than from its configuration: a pod's own log. */
    Path kwokCrds() {
        return dir.resolve("kwok-crds");
    }

    /** The logs given to single pods ({@link ControlPlane#printLog}), a file each. */
    Path podLogs() {
        return dir.resolve("pod-logs");
    }

    Path podLogRules() {
        return dir.resolve("kwok-pod-logs.yaml");
    }

    Path etcdData() {
        return dir.resolve("etcd");
    }

    Path kubeconfig(String component, String masterUrl, String token) throws IOException {
        Path file = dir.resolve(component + ".kubeconfig");
        Files.writeString(file, Kubeconfig.yaml(masterUrl, caFile().toString(), component, token));
        return file;
    }

    private void writeSigningKey() throws IOException {
        KeyPair pair;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            pair = generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Files.writeString(serviceAccountKey(), pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
        Files.writeString(serviceAccountPublicKey(), pem("PUBLIC KEY", pair.getPublic().getEncoded()));
    }

    private void writeFrontProxyCertificates() throws IOException {
        Path caKey = certDir().resolve("front-proxy-ca.key");
        Path request = certDir().resolve("front-proxy-client.csr");
        Path extensions = Files.writeString(certDir().resolve("front-proxy-client.ext"), "extendedKeyUsage=clientAuth\n");
        String curve = "ec_paramgen_curve:prime256v1";
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", curve, "-nodes", "-days", "1", "-subj", "/CN=front-proxy-ca",
                "-keyout", caKey.toString(), "-out", frontProxyCa().toString());
        openssl("req", "-newkey", "ec", "-pkeyopt", curve, "-nodes", "-subj", "/CN=" + FRONT_PROXY_CLIENT,
                "-keyout", frontProxyClientKey().toString(), "-out", request.toString());
        openssl("x509", "-req", "-in", request.toString(), "-CA", frontProxyCa().toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-days", "1", "-extfile", extensions.toString(), "-out", frontProxyClientCert().toString());
    }

    private void openssl(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes());
            if (process.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted making the front proxy's certificates", e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
