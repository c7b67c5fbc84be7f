package io.paddlejobs.api.openapi;

import io.paddlejobs.api.FieldError;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** How every error response looks, for the contract only: the advice builds them as {@code ProblemDetail}. */
@Schema(name = "Problem", description = "An RFC 9457 problem document (application/problem+json)")
public record ProblemSchema(
        @Schema(example = "urn:paddlejobs:problem:invalid-request") String type,
        @Schema(example = "Invalid job request") String title,
        @Schema(example = "400") int status,
        @Schema(example = "num_gpu: is not a field of a job request") String detail,
        @Schema(example = "/jobs") String instance,
        @Schema(description = "For request errors: each offending field, what is wrong, and the rejected value")
        List<FieldError> errors) {
}
