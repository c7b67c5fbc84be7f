package io.paddlejobs.security.kubernetes;

import io.paddlejobs.security.Action;
import io.paddlejobs.security.Tenant;
import io.paddlejobs.security.TenantAuthorizer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mode {@code kubernetes}: whoever the cluster's RBAC lets manage Jobs in a namespace may use it
 * here. Each action is a SubjectAccessReview on {@code batch/jobs} in the namespace, with the verb
 * kubectl would need for the same thing; answers are kept for the cache TTL, and a review that
 * fails denies (403).
 */
final class KubernetesAuthorizer implements TenantAuthorizer {

    private static final Logger log = LoggerFactory.getLogger(KubernetesAuthorizer.class);

    /** The tenant is a function of the token's cached review, so keying by who it is keys by the token. */
    private record Question(String user, List<String> groups, String namespace, String verb) {
    }

    private final ClusterReviews reviews;
    private final ReviewCache<Question, Boolean> answers;

    KubernetesAuthorizer(ClusterReviews reviews, Clock clock, Duration ttl) {
        this.reviews = reviews;
        this.answers = new ReviewCache<>(clock, ttl);
    }

    /** The Kubernetes verb on batch/jobs that stands for an action; cancel stops the Job's pods, as a delete would. */
    static String verb(Action action) {
        return switch (action) {
            case SUBMIT -> "create";
            case READ -> "get";
            case LIST -> "list";
            case CANCEL, DELETE -> "delete";
        };
    }

    @Override
    public boolean mayUse(Tenant tenant, String namespace, Action action) {
        var question = new Question(tenant.user(), tenant.groups(), namespace, verb(action));
        try {
            return answers.get(question, () -> reviews.allowed(
                    new ClusterReviews.Identity(tenant.user(), tenant.groups()), namespace, question.verb()));
        } catch (RuntimeException e) {
            log.warn("SubjectAccessReview failed, so user '{}' is denied {} jobs.batch in '{}': {}",
                    tenant.user(), question.verb(), namespace, e.toString());
            return false;
        }
    }

    @Override
    public String whereAllowed(Tenant tenant, Action action) {
        return "the cluster does not allow them to " + verb(action) + " jobs.batch there";
    }
}
