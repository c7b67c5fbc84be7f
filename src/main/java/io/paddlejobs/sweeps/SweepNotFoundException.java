package io.paddlejobs.sweeps;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** No sweep of that name in the namespace: 404. */
final class SweepNotFoundException extends ErrorResponseException {

    SweepNotFoundException(SweepKey key) {
        super(HttpStatus.NOT_FOUND);
        getBody().setType(ProblemType.SWEEP_NOT_FOUND.uri());
        setTitle("Sweep not found");
        setDetail("No sweep named '" + key.name() + "' in namespace '" + key.namespace() + "'.");
    }
}
