package io.paddlejobs.security.kubernetes;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.utils.ResponseProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * fabric8's mock API server in expectations mode, answering TokenReviews and SubjectAccessReviews
 * from what each request's body asks, as a cluster with this RBAC would:
 * <ul>
 *   <li>alice ({@code alice-token}, group {@code team-a-devs}) may do anything to Jobs in team-a;</li>
 *   <li>bob ({@code bob-token}, no default namespace configured) may do anything in team-b;</li>
 *   <li>viewer ({@code viewer-token}) may only get and list in team-a;</li>
 *   <li>{@code broken-token}: the API server fails the TokenReview (500);</li>
 *   <li>carol ({@code carol-token}): every SubjectAccessReview about her fails (500).</li>
 * </ul>
 */
final class ReviewingCluster implements AutoCloseable {

    static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
    static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

    private record Identity(String user, List<String> groups) {
    }

    private static final Map<String, Identity> TOKENS = Map.of(
            "alice-token", new Identity("alice", List.of("team-a-devs", "system:authenticated")),
            "bob-token", new Identity("bob", List.of("system:authenticated")),
            "viewer-token", new Identity("viewer", List.of("system:authenticated")),
            "carol-token", new Identity("carol", List.of("system:authenticated")));

    /** "user namespace verb" that RBAC allows. */
    private static final Set<String> ALLOWED = Set.of(
            "alice team-a create", "alice team-a get", "alice team-a list", "alice team-a delete",
            "bob team-b create", "bob team-b get", "bob team-b list", "bob team-b delete",
            "viewer team-a get", "viewer team-a list");

    final KubernetesMockServer server = new KubernetesMockServer(false);

    ReviewingCluster() {
        server.init();
        server.expect().post().withPath(TOKEN_REVIEWS).andReply(respond(ReviewingCluster::tokenReview)).always();
        server.expect().post().withPath(ACCESS_REVIEWS).andReply(respond(ReviewingCluster::accessReview)).always();
    }

    String url() {
        return server.url("/");
    }

    private static Reply tokenReview(RecordedRequest request) {
        TokenReview review = Serialization.unmarshal(body(request), TokenReview.class);
        String token = review.getSpec().getToken();
        if ("broken-token".equals(token)) {
            return Reply.failure();
        }
        Identity identity = TOKENS.get(token);
        if ("unbound-token".equals(token)) {
            // An authenticator that ignores audiences: it says who, but not for whom the token was issued.
            review.setStatus(new io.fabric8.kubernetes.api.model.authentication.TokenReviewStatusBuilder()
                    .withAuthenticated(true).withNewUser().withUsername("mallory").endUser().build());
            return new Reply(201, Serialization.asJson(review));
        }
        review.setStatus(identity == null
                ? new io.fabric8.kubernetes.api.model.authentication.TokenReviewStatusBuilder()
                        .withAuthenticated(false).withError("invalid bearer token").build()
                : new io.fabric8.kubernetes.api.model.authentication.TokenReviewStatusBuilder()
                        .withAuthenticated(true)
                        .withNewUser().withUsername(identity.user()).withGroups(identity.groups()).endUser()
                        // As the API server does: the requested audiences the token was issued for.
                        .withAudiences(review.getSpec().getAudiences())
                        .build());
        return new Reply(201, Serialization.asJson(review));
    }

    private static Reply accessReview(RecordedRequest request) {
        SubjectAccessReview review = Serialization.unmarshal(body(request), SubjectAccessReview.class);
        var spec = review.getSpec();
        if ("carol".equals(spec.getUser())) {
            return Reply.failure();
        }
        var attributes = spec.getResourceAttributes();
        boolean allowed = "batch".equals(attributes.getGroup()) && "jobs".equals(attributes.getResource())
                && ALLOWED.contains(spec.getUser() + " " + attributes.getNamespace() + " " + attributes.getVerb());
        review.setStatus(new io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatusBuilder()
                .withAllowed(allowed).build());
        return new Reply(201, Serialization.asJson(review));
    }

    /** Every request the server received since the last call, in order. */
    List<RecordedRequest> takeRequests() throws InterruptedException {
        List<RecordedRequest> taken = new ArrayList<>();
        for (RecordedRequest request; (request = server.takeRequest(50, TimeUnit.MILLISECONDS)) != null; ) {
            taken.add(request);
        }
        return taken;
    }

    /** The SubjectAccessReviews among {@code requests}, as sent. */
    static List<SubjectAccessReview> accessReviews(List<RecordedRequest> requests) {
        return requests.stream().filter(r -> r.getPath().equals(ACCESS_REVIEWS))
                .map(r -> Serialization.unmarshal(body(r), SubjectAccessReview.class)).toList();
    }

    static List<TokenReview> tokenReviews(List<RecordedRequest> requests) {
        return requests.stream().filter(r -> r.getPath().equals(TOKEN_REVIEWS))
                .map(r -> Serialization.unmarshal(body(r), TokenReview.class)).toList();
    }

    /** The body, read without using it up (getUtf8Body() empties the buffer: the recorded request would lose it). */
    private static String body(RecordedRequest request) {
        return new String(request.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.destroy();
    }

    private record Reply(int status, String body) {
        static Reply failure() {
            return new Reply(500, Serialization.asJson(new StatusBuilder().withStatus("Failure").withCode(500)
                    .withReason("InternalError").withMessage("etcd is having a bad day").build()));
        }
    }

    private static ResponseProvider<Object> respond(Function<RecordedRequest, Reply> answer) {
        return new ResponseProvider<>() {
            private Headers headers = Headers.builder().build();

            @Override
            public int getStatusCode(RecordedRequest request) {
                return answer.apply(request).status();
            }

            @Override
            public Object getBody(RecordedRequest request) {
                return answer.apply(request).body();
            }

            @Override
            public Headers getHeaders() {
                return headers;
            }

            @Override
            public void setHeaders(Headers headers) {
                this.headers = headers;
            }
        };
    }
}
