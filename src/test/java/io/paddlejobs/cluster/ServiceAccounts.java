package io.paddlejobs.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** Identities on the real cluster: the service's own, as deploy/ makes it, and tokens the API server issues. */
public final class ServiceAccounts {

    /** The namespace and ServiceAccount of deploy/. */
    public static final String SERVICE_NAMESPACE = "paddle-jobs";
    public static final String SERVICE_ACCOUNT = "paddle-jobs";

    private static boolean deployed;

    private ServiceAccounts() {
    }

    /** Applies deploy/'s Namespace, ServiceAccount and RBAC (once per run) and returns a token of that account. */
    public static synchronized String deployedServiceToken(KubernetesClient admin) {
        if (!deployed) {
            for (String file : List.of("namespace.yaml", "service-account.yaml", "rbac.yaml")) {
                apply(admin, Path.of("deploy", file));
            }
            deployed = true;
        }
        return token(admin, SERVICE_NAMESPACE, SERVICE_ACCOUNT);
    }

    /** A token for the account from the TokenRequest API, valid for an hour, for the API server's audience. */
    public static String token(KubernetesClient admin, String namespace, String account) {
        return admin.serviceAccounts().inNamespace(namespace).withName(account)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
    }

    private static void apply(KubernetesClient admin, Path file) {
        try (InputStream yaml = new FileInputStream(file.toFile())) {
            for (HasMetadata object : admin.load(yaml).items()) {
                // kustomize puts the namespaced objects into the service's namespace; so do we.
                if (!List.of("Namespace", "ClusterRole", "ClusterRoleBinding").contains(object.getKind())) {
                    object.getMetadata().setNamespace(SERVICE_NAMESPACE);
                }
                admin.resource(object).create();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
