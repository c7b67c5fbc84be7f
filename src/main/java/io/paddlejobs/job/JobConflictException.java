package io.paddlejobs.job;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** The name is taken by a job with a different spec, or the job is in no state for the action. */
public class JobConflictException extends ErrorResponseException {

    public JobConflictException(String title, String detail) {
        super(HttpStatus.CONFLICT);
        getBody().setType(ProblemType.CONFLICT.uri());
        setTitle(title);
        setDetail(detail);
    }

    /** A command is run only in a replica of a job whose failed attempt is held ({@code debug_hold}). */
    public static JobConflictException notHeld(JobKey key) {
        return new JobConflictException("Job not held", "exec runs a command only in a replica of a held job (phase"
                + " Running, reason Held: a failed attempt kept for its debug_hold), and job '" + key.name()
                + "' is not held now. Submit it with debug_hold (such as 10m) to keep its next failed attempt.");
    }

    /** Stacks are taken of running trainers ({@link JobBackend#takeStacks}), and the job has none now. */
    public static JobConflictException noTrainerRunning(JobKey key, JobPhase phase) {
        return new JobConflictException("No trainer running", "Stacks are taken of running trainers, and no trainer "
                + "of job '" + key.name() + "' runs now (phase " + phase.wireName() + ").");
    }

    public static JobConflictException nameTaken(JobKey key) {
        return new JobConflictException("Job name taken",
                "A job named '" + key.name() + "' already exists in namespace '" + key.namespace()
                        + "' with a different spec. Choose another name, or delete that job first.");
    }
}
