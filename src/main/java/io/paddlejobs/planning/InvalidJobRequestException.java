package io.paddlejobs.planning;

import java.util.List;

/** The request breaks one or more planning rules; nothing has been created. */
public class InvalidJobRequestException extends RuntimeException {

    private final List<Violation> violations;
    private final JobRequest request;

    public InvalidJobRequestException(List<Violation> violations) {
        this(violations, null);
    }

    /** With the request as given, so that each field of a conflict can be shown with its own value. */
    public InvalidJobRequestException(List<Violation> violations, JobRequest request) {
        super(violations.isEmpty() ? "invalid job request" : violations.get(0).message());
        this.violations = List.copyOf(violations);
        this.request = request;
    }

    public List<Violation> violations() {
        return violations;
    }

    /**
     * What {@code field} was rejected with: its own value as given where the violation names several
     * fields (a conflict between them), else the violation's value.
     */
    public Object rejected(Violation violation, String field) {
        if (violation.fields().size() > 1) {
            return request == null ? null : request.given(field);
        }
        return violation.rejected();
    }
}
