package io.paddlejobs.api;

import io.paddlejobs.planning.JobRequest;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request of a job run again: the earlier job's request document with the body's fields put
 * over it (a field given {@code null} is taken out, as in a JSON merge patch), then read and
 * checked as a submit's body is, so an override breaks the same rules with the same answers.
 */
@Component
class RerunRequests {

    private final JsonMapper json;
    private final Validator validator;

    RerunRequests(JsonMapper json, Validator validator) {
        this.json = json;
        this.validator = validator;
    }

    /**
     * @param earlier   the request the earlier job was submitted with
     * @param overrides the body: request fields to change; {@code null} or empty for none
     * @return the new request; its name is the body's, else {@code null} (the caller picks one)
     */
    JobRequest merge(JobRequest earlier, JsonNode overrides) {
        if (overrides != null && !overrides.isNull() && !overrides.isObject()) {
            throw invalid(new ArrayList<>(List.of(new FieldError("(body)",
                    "must be a JSON object of the request fields to change, such as {\"trainers\": 4}", null))));
        }
        ObjectNode document = json.valueToTree(JobRequestBody.of(earlier.withName(null)));
        if (overrides != null && overrides.isObject()) {
            for (Map.Entry<String, JsonNode> field : overrides.properties()) {
                if (field.getValue().isNull()) {
                    document.remove(field.getKey());
                } else {
                    document.set(field.getKey(), field.getValue());
                }
            }
        }
        return read(document);
    }

    /**
     * A request document read and checked as a submit's body is (an imported manifest's, a merged rerun's).
     *
     * @throws ErrorResponseException 400 naming each field that breaks a rule
     */
    JobRequest read(JsonNode document) {
        JobRequestBody body;
        try {
            body = json.treeToValue(document, JobRequestBody.class);
        } catch (JacksonException e) {
            throw new ErrorResponseException(HttpStatus.BAD_REQUEST, UnreadableBodies.problem(e), e);
        }
        List<FieldError> errors = new ArrayList<>();
        for (ConstraintViolation<JobRequestBody> violation : validator.validate(body)) {
            errors.add(new FieldError(Problems.jsonName(violation.getPropertyPath().toString()),
                    violation.getMessage(), Problems.rejectedValue(violation.getInvalidValue())));
        }
        if (!errors.isEmpty()) {
            throw invalid(errors);
        }
        return body.toRequest();
    }

    static ErrorResponseException invalid(List<FieldError> errors) {
        // Sorted as a submit's are, so the same body gets the same document.
        errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
        return new ErrorResponseException(HttpStatus.BAD_REQUEST, Problems.invalidRequest(errors), null);
    }
}
