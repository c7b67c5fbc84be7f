package io.paddlejobs.api;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Violation;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.AuditLog;
import io.paddlejobs.security.AuditOutcome;
import io.paddlejobs.security.SecurityProperties;
import io.paddlejobs.security.Tenant;
import io.paddlejobs.sweeps.JobRequests;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.http.ProblemDetail;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A sweep's job requests as this layer has them: read and checked as a {@code POST /jobs} body is, written
 * as a job's spec is shown, and submitted through {@link JobSubmits} with an audit line in the sweep owner's
 * name (a trial is submitted off any request, by the replica that drives the sweep).
 */
@Component
class SweepJobRequests implements JobRequests {

    private static final TypeReference<Map<String, Object>> DOCUMENT = new TypeReference<>() {
    };

    private final JsonMapper json;
    private final Validator validator;
    private final JobSubmits submits;
    private final AuditLog audit;
    private final SecurityProperties security;

    SweepJobRequests(JsonMapper json, Validator validator, JobSubmits submits, AuditLog audit, SecurityProperties security) {
        this.json = json;
        this.validator = validator;
        this.submits = submits;
        this.audit = audit;
        this.security = security;
    }

    @Override
    public Reading read(Map<String, Object> document) {
        JobRequestBody body;
        try {
            body = json.treeToValue(json.valueToTree(document), JobRequestBody.class);
        } catch (JacksonException e) {
            return new Reading(null, violations(UnreadableBodies.problem(e)));
        }
        List<Violation> violations = new ArrayList<>();
        for (ConstraintViolation<JobRequestBody> violation : validator.validate(body)) {
            violations.add(Violation.of(Problems.jsonName(violation.getPropertyPath().toString()),
                    Problems.rejectedValue(violation.getInvalidValue()), violation.getMessage()));
        }
        return violations.isEmpty() ? new Reading(body.toRequest(), List.of()) : new Reading(null, violations);
    }

    @SuppressWarnings("unchecked")
    private static List<Violation> violations(ProblemDetail problem) {
        Object errors = problem.getProperties() == null ? null : problem.getProperties().get("errors");
        if (errors instanceof List<?> list && !list.isEmpty()) {
            return ((List<FieldError>) list).stream().map(e -> Violation.of(e.field(), e.rejected(), e.message())).toList();
        }
        return List.of(Violation.of("(body)", null, problem.getDetail()));
    }

    @Override
    public Map<String, Object> document(JobRequest request) {
        return json.convertValue(JobRequestBody.of(request), DOCUMENT);
    }

    @Override
    public String baseUrl() {
        return security.baseUrl() != null ? security.baseUrl().toString()
                : ServletUriComponentsBuilder.fromCurrentContextPath().toUriString();
    }

    @Override
    public JobService.Submission submit(JobRequest request, String namespace, Tenant owner, String baseUrl) {
        String statusUrl = UriComponentsBuilder.fromUriString(baseUrl).path("/jobs/{name}/status")
                .queryParam("namespace", namespace).buildAndExpand(request.name()).toUriString();
        SecurityContext before = SecurityContextHolder.getContext();
        SecurityContext asOwner = SecurityContextHolder.createEmptyContext();
        asOwner.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(owner, null, List.of()));
        SecurityContextHolder.setContext(asOwner); // the audit line names the sweep's owner
        try {
            return audit.record(Action.SUBMIT, namespace, request.name(),
                    () -> submits.submit(request, namespace, owner, statusUrl).submission(),
                    done -> done.created() ? AuditOutcome.CREATED : AuditOutcome.EXISTING);
        } finally {
            SecurityContextHolder.setContext(before);
        }
    }
}
