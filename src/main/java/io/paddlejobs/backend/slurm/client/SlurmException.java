package io.paddlejobs.backend.slurm.client;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * Slurm could not be reached, or refused (a partition that does not exist, resources no node
 * has): 502, with Slurm's own words, which usually say what to change.
 */
public class SlurmException extends ErrorResponseException {

    public SlurmException(String action, String slurmMessage, Throwable cause) {
        super(HttpStatus.BAD_GATEWAY, ProblemDetail.forStatus(HttpStatus.BAD_GATEWAY), cause);
        getBody().setType(ProblemType.SLURM_REFUSED.uri());
        setTitle("Slurm refused the request");
        setDetail("Slurm could not " + action + ": " + slurmMessage);
    }
}
