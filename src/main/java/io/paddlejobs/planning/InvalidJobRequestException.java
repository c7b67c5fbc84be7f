package io.paddlejobs.planning;

import java.util.List;

/** The request breaks one or more planning rules; nothing has been created. */
public class InvalidJobRequestException extends RuntimeException {

    private final List<Violation> violations;

    public InvalidJobRequestException(List<Violation> violations) {
        super(violations.isEmpty() ? "invalid job request" : violations.get(0).message());
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}
