package io.paddlejobs.job;

import io.paddlejobs.planning.Role;
import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** The job has no replica of that role and index. */
public class ReplicaNotFoundException extends ErrorResponseException {

    public ReplicaNotFoundException(JobKey key, Role role, int index, int count) {
        super(HttpStatus.NOT_FOUND);
        getBody().setType(ProblemType.REPLICA_NOT_FOUND.uri());
        setTitle("Replica not found");
        setDetail("Job '%s' has %d %ss; there is no %s %d (indexes start at 0)."
                .formatted(key.name(), count, role.label(), role.label(), index));
    }
}
