package io.paddlejobs.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.UUID;

/**
 * The control plane's credentials and configuration files, all made afresh in one work
 * directory per run: bearer tokens (a static token file: the simplest authenticator that still
 * goes through authorization), the service-account signing key, kubeconfigs and kwok's stages.
 * The API server makes its own serving certificate and CA in {@link #certDir()}, valid for
 * 127.0.0.1; everything else trusts that CA.
 */
record ClusterFiles(Path dir, String adminToken, String controllerManagerToken, String schedulerToken,
                    String kwokToken) {

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
        try (InputStream stages = ClusterFiles.class.getResourceAsStream("kwok-stages.yaml")) {
            Files.write(files.stages(), stages.readAllBytes());
        }
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

    Path stages() {
        return dir.resolve("kwok-stages.yaml");
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

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
