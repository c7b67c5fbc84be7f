package io.paddlejobs.planning;

import java.util.List;

/** The request breaks one or more planning rules; nothing has been created. */
public class InvalidJobRequest extends RuntimeException {

    private final List<Violation> violations;

    public InvalidJobRequest(List<Violation> violations) {
        super(violations.isEmpty() ? "invalid job request" : violations.get(0).message());
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}
