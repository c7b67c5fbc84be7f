package io.paddlejobs.api.openapi;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Every operation's error answers, described once under {@code components/responses} as problem
 * documents and referenced from each operation that can give them: a generated client then knows
 * every status it may meet, and how its body reads.
 */
@Component
@Order(1)
class ProblemResponses implements OpenApiCustomizer {

    /** The errors the service answers with, and which operations can answer each. */
    enum ErrorAnswer {
        BAD_REQUEST(400, "BadRequest", "The request breaks a rule; errors names each field and why"),
        UNAUTHORIZED(401, "Unauthorized", "No valid bearer token (security modes token and kubernetes)"),
        FORBIDDEN(403, "Forbidden", "The caller may not use this namespace, or a cluster quota refused the job"),
        NOT_FOUND(404, "NotFound", "No such job (or replica, or sweep) in this namespace"),
        NOT_ACCEPTABLE(406, "NotAcceptable", "The Accept header allows none of the media types the operation answers with"),
        REQUEST_TIMEOUT(408, "RequestTimeout", "The body arrived too slowly"),
        CONFLICT(409, "Conflict", "The name is taken by a job (or sweep) with another spec, or by an object the service did not create; or the job is in no state for the action (stacks of a job that does not run, exec in a job that is not held)"),
        CONTENT_TOO_LARGE(413, "ContentTooLarge", "The body is over the size limit"),
        UNSUPPORTED_MEDIA_TYPE(415, "UnsupportedMediaType", "The body is not of the media type the operation reads"),
        TOO_MANY_REQUESTS(429, "TooManyRequests", "Over one of the namespace's or the user's limits, or the caller is sending as many request bodies at once as the service reads from one; Retry-After says when to try again"),
        INTERNAL_ERROR(500, "InternalError", "The service failed to handle the request; the error is logged"),
        NOT_IMPLEMENTED(501, "NotImplemented", "This service's backend cannot do this (the detail says why)"),
        BAD_GATEWAY(502, "BadGateway", "The cluster refused the change for a reason the service cannot name"),
        SERVICE_UNAVAILABLE(503, "ServiceUnavailable", "The backend cannot be reached now; Retry-After says when to try again");

        final int status;
        final String component;
        final String description;

        ErrorAnswer(int status, String component, String description) {
            this.status = status;
            this.component = component;
            this.description = description;
        }

        boolean appliesTo(String path, PathItem.HttpMethod method, Operation operation) {
            boolean changes = method != PathItem.HttpMethod.GET;
            return switch (this) {
                case BAD_REQUEST, FORBIDDEN, NOT_ACCEPTABLE, INTERNAL_ERROR, SERVICE_UNAVAILABLE -> true;
                // ContractSecurity has left a requirement only where the running mode wants a token.
                case UNAUTHORIZED -> operation.getSecurity() != null && !operation.getSecurity().isEmpty();
                // A comparison names its jobs (or sweep) in its query.
                case NOT_FOUND -> path.contains("{") || "compareRuns".equals(operation.getOperationId());
                case CONFLICT -> Set.of("submit", "rerun", "importPaddleJob", "createSweep", "takeStacks", "exec")
                        .contains(operation.getOperationId());
                case NOT_IMPLEMENTED -> "takeStacks".equals(operation.getOperationId());
                // A submit (or run again) over the rate or quota, a log read over the user's open logs, an upload over its
                // slots, any body beyond those its caller is sending at once (paddlejobs.web.max-bodies-per-caller).
                case TOO_MANY_REQUESTS -> operation.getRequestBody() != null
                        || Set.of("submit", "rerun", "logs", "exec", "upload").contains(operation.getOperationId());
                case CONTENT_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, REQUEST_TIMEOUT -> operation.getRequestBody() != null;
                case BAD_GATEWAY -> changes && path.startsWith("/jobs");
            };
        }

        boolean retryable() {
            return this == TOO_MANY_REQUESTS || this == SERVICE_UNAVAILABLE;
        }
    }

    static final String PROBLEM_JSON = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;

    @Override
    public void customise(OpenAPI api) {
        Components components = api.getComponents();
        ModelConverters.getInstance(api.getSpecVersion() == SpecVersion.V31)
                .readAll(new AnnotatedType(ProblemSchema.class)).forEach(components::addSchemas);
        // Only the answers some operation gives (in mode none, no 401) are described.
        Map<String, ApiResponse> responses = new TreeMap<>();
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            for (ErrorAnswer answer : ErrorAnswer.values()) {
                if (answer.appliesTo(path, method, operation)) {
                    operation.getResponses().addApiResponse(String.valueOf(answer.status),
                            new ApiResponse().$ref("#/components/responses/" + answer.component));
                    responses.putIfAbsent(answer.component, response(answer));
                }
            }
        }));
        responses.forEach(components::addResponses);
    }

    private static ApiResponse response(ErrorAnswer answer) {
        ApiResponse response = new ApiResponse().description(answer.description).content(new Content()
                .addMediaType(PROBLEM_JSON, new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem"))));
        if (answer.retryable()) {
            response.addHeaderObject("Retry-After", new Header()
                    .description("Seconds to wait before trying again, when known").schema(new IntegerSchema()));
        }
        return response;
    }
}
