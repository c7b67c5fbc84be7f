package io.paddlejobs.security.kubernetes;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;

/**
 * The two questions mode {@code kubernetes} asks the API server: whose is this token (TokenReview,
 * authentication.k8s.io/v1), and may they do this to {@code batch/jobs} in this namespace
 * (SubjectAccessReview, authorization.k8s.io/v1). A review that cannot be made (the API server
 * answers an error, or not at all) throws; callers deny on it.
 */
final class ClusterReviews implements AutoCloseable {

    /** Who the cluster says a token belongs to. */
    record Identity(String user, List<String> groups) {
    }

    private final KubernetesClient client;
    private final boolean owned;

    /** @param owned whether closing this closes the client (not when it is the backend's) */
    ClusterReviews(KubernetesClient client, boolean owned) {
        this.client = client;
        this.owned = owned;
    }

    /**
     * The audience a caller's token must be issued for ({@code kubectl create token <sa> --audience
     * paddle-jobs}): a token meant for this service is no use against the API server, so neither
     * this service nor anyone who sees it on the way can replay it there.
     */
    static final String AUDIENCE = "paddle-jobs";

    /** The token's user and groups; empty when the cluster says it is not a valid token for this service. */
    Optional<Identity> authenticate(String token) {
        TokenReview review = client.authentication().v1().tokenReviews().create(new TokenReviewBuilder()
                .withNewSpec().withToken(token).withAudiences(AUDIENCE).endSpec()
                .build());
        var status = review.getStatus();
        // An authenticator that ignores audiences answers without them: such a token is not ours.
        boolean forUs = status != null && status.getAudiences() != null && status.getAudiences().contains(AUDIENCE);
        if (!forUs || !Boolean.TRUE.equals(status.getAuthenticated()) || status.getUser() == null
                || status.getUser().getUsername() == null || status.getUser().getUsername().isBlank()) {
            return Optional.empty();
        }
        List<String> groups = status.getUser().getGroups() == null ? List.of() : status.getUser().getGroups();
        return Optional.of(new Identity(status.getUser().getUsername(), groups));
    }

    /** Whether the cluster's RBAC (or whatever authorizes there) lets the user {@code verb} batch/jobs in the namespace. */
    boolean allowed(Identity identity, String namespace, String verb) {
        SubjectAccessReview review = client.authorization().v1().subjectAccessReview().create(
                new SubjectAccessReviewBuilder()
                        .withNewSpec()
                        .withUser(identity.user())
                        .withGroups(identity.groups())
                        .withNewResourceAttributes()
                        .withNamespace(namespace)
                        .withVerb(verb)
                        .withGroup("batch")
                        .withResource("jobs")
                        .endResourceAttributes()
                        .endSpec()
                        .build());
        return review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAllowed());
    }

    @Override
    public void close() {
        if (owned) {
            client.close();
        }
    }
}
