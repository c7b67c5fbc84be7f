package io.paddlejobs.sweeps;

import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.Violation;
import java.util.List;

/**
 * A sweep that breaks a rule: a 400 naming each field (under {@code template.} for the job request, under
 * {@code parameters[i]} for what a parameter sets), as a job request's violations are answered.
 */
final class SweepRejectedException extends InvalidJobRequestException {

    SweepRejectedException(List<Violation> violations) {
        super(violations);
    }
}
