package io.paddlejobs.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
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

    /** The audience callers' tokens are issued for in mode kubernetes ({@code kubectl create token --audience}). */
    public static final String SERVICE_AUDIENCE = "paddle-jobs";

    private static final Path DEPLOY = Path.of("deploy", "base");

    /** The API servers (by URL) deploy/'s objects were applied to: each test cluster once. */
    private static final java.util.Set<String> DEPLOYED_TO = new java.util.HashSet<>();

    private ServiceAccounts() {
    }

    /**
     * Applies deploy/'s Namespace, ServiceAccount and RBAC (once per run and cluster) and returns a token of
     * that account for the API server. It may not touch workloads anywhere until {@link #serve} grants it
     * a namespace.
     */
    public static synchronized String deployedServiceToken(KubernetesClient admin) {
        if (DEPLOYED_TO.add(admin.getMasterUrl().toString())) {
            for (String file : List.of("namespace.yaml", "service-account.yaml", "rbac.yaml")) {
                apply(admin, DEPLOY.resolve(file), null);
            }
        }
        return token(admin, SERVICE_NAMESPACE, SERVICE_ACCOUNT);
    }

    /** deploy/'s RoleBinding (served-namespaces.yaml), made in {@code namespace} as an operator lists one per served namespace. */
    public static void serve(KubernetesClient admin, String namespace) {
        apply(admin, DEPLOY.resolve("served-namespaces.yaml"), namespace);
    }

    /**
     * A caller of the service in mode kubernetes, as an operator makes one: a ServiceAccount in
     * {@code namespace} (which exists) with a Role there that lets it do {@code verbs} to Jobs;
     * returns its token for the service's audience.
     */
    public static String jobsUser(KubernetesClient admin, String namespace, String account, List<String> verbs) {
        admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName(account).endMetadata().build()).create();
        admin.rbac().roles().inNamespace(namespace).resource(new RoleBuilder().withNewMetadata().withName(account + "-jobs")
                .endMetadata().addNewRule().withApiGroups("batch").withResources("jobs").withVerbs(verbs).endRule()
                .build()).create();
        admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata()
                .withName(account).endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", account + "-jobs")
                .addNewSubject().withKind("ServiceAccount").withName(account).withNamespace(namespace).endSubject()
                .build()).create();
        return token(admin, namespace, account, List.of(SERVICE_AUDIENCE));
    }

    /** A token for the account from the TokenRequest API, valid for an hour, for the API server's audience. */
    public static String token(KubernetesClient admin, String namespace, String account) {
        return token(admin, namespace, account, List.of());
    }

    /** A token for the account, valid for an hour, for these audiences (none: the API server's). */
    public static String token(KubernetesClient admin, String namespace, String account, List<String> audiences) {
        return admin.serviceAccounts().inNamespace(namespace).withName(account)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L)
                        .withAudiences(audiences).endSpec().build())
                .getStatus().getToken();
    }

    /** Creates every object of the file; a namespaced one goes into {@code namespace} when given, else keeps its own. */
    private static void apply(KubernetesClient admin, Path file, String namespace) {
        try (InputStream yaml = new FileInputStream(file.toFile())) {
            for (HasMetadata object : admin.load(yaml).items()) {
                if (namespace != null && object.getMetadata().getNamespace() != null) {
                    object.getMetadata().setNamespace(namespace);
                }
                admin.resource(object).create();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
