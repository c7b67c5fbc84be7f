package io.paddlejobs.sweeps;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A sweep's name, or one of its trials' job names, is taken by something else: 409. */
final class SweepConflictException extends ErrorResponseException {

    private SweepConflictException(String detail) {
        super(HttpStatus.CONFLICT);
        getBody().setType(ProblemType.CONFLICT.uri());
        setTitle("Name already taken");
        setDetail(detail);
    }

    static SweepConflictException nameTaken(SweepKey key) {
        return new SweepConflictException("A sweep named '" + key.name() + "' already exists in namespace '"
                + key.namespace() + "' with a different request; choose another name, or delete it first.");
    }

    static SweepConflictException trialTaken(SweepKey key, String job) {
        return new SweepConflictException("Its trial " + job + " would take the name of a job that already exists in"
                + " namespace '" + key.namespace() + "'; choose another sweep name, or delete that job.");
    }
}
