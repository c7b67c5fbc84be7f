package io.paddlejobs.cluster;

/** A kubeconfig with one cluster, one bearer-token user and the context that joins them. */
public final class Kubeconfig {

    private Kubeconfig() {
    }

    /**
     * @param caFile the API server's CA as the reader will find it (a path inside the image, for
     *               the image's tests)
     */
    public static String yaml(String server, String caFile, String user, String token) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: local
                  cluster:
                    server: %s
                    certificate-authority: %s
                users:
                - name: %s
                  user:
                    token: %s
                contexts:
                - name: local
                  context:
                    cluster: local
                    user: %s
                current-context: local
                """.formatted(server, caFile, user, token, user);
    }
}
