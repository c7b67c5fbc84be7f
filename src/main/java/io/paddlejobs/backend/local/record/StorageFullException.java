package io.paddlejobs.backend.local.record;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.util.unit.DataSize;
import org.springframework.web.ErrorResponseException;

/** A submit refused because the data root is (nearly) full: 507, and nothing was created. */
public class StorageFullException extends ErrorResponseException {

    private StorageFullException(String detail, Throwable cause) {
        super(HttpStatus.INSUFFICIENT_STORAGE, ProblemDetail.forStatus(HttpStatus.INSUFFICIENT_STORAGE), cause);
        getBody().setType(ProblemType.INSUFFICIENT_STORAGE.uri());
        setTitle("Not enough disk space");
        setDetail(detail);
        getHeaders().set(HttpHeaders.RETRY_AFTER, "60");
    }

    public static StorageFullException belowFloor(JobKey key, long freeBytes, DataSize floor) {
        return new StorageFullException(("Job %s was not created: the service's data directory has %d MiB free, "
                + "below the %d MiB it keeps for running jobs (paddlejobs.min-free-space). Delete finished jobs "
                + "to free their logs, then submit again.").formatted(key.name(), freeBytes >> 20, floor.toMegabytes()), null);
    }

    public static StorageFullException writeFailed(JobKey key, Throwable cause) {
        return new StorageFullException(("Job %s was not created: its record could not be written (is the disk full?). "
                + "Nothing was left behind; delete finished jobs to free space, then submit again.").formatted(key.name()), cause);
    }
}
