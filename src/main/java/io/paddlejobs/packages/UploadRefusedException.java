package io.paddlejobs.packages;

import io.paddlejobs.problem.ProblemType;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.util.unit.DataSize;
import org.springframework.web.ErrorResponseException;

/** An upload refused for what it would take of the service (slots, time, quota, disk), with the limit in words. */
class UploadRefusedException extends ErrorResponseException {

    private UploadRefusedException(HttpStatus status, ProblemType type, String title, String detail) {
        super(status);
        getBody().setType(type.uri());
        setTitle(title);
        setDetail(detail);
    }

    static UploadRefusedException tooManyUploads(String user, int perUser) {
        UploadRefusedException e = new UploadRefusedException(HttpStatus.TOO_MANY_REQUESTS, ProblemType.TOO_MANY_UPLOADS,
                "Too many uploads at once", "User '%s' may upload %d packages at once (paddlejobs.packages.max-uploads-per-user); "
                .formatted(user, perUser) + "wait for one to finish.");
        e.getHeaders().set(HttpHeaders.RETRY_AFTER, "5");
        return e;
    }

    static UploadRefusedException tooSlow(long read, Duration elapsed, long minBytesPerSecond) {
        return new UploadRefusedException(HttpStatus.REQUEST_TIMEOUT, ProblemType.UPLOAD_TOO_SLOW, "Upload too slow",
                ("The upload sent %d bytes in %d s, below the %d KiB/s an upload must keep after its first seconds."
                        + " Upload from closer to the service, or over a faster link.").formatted(read, elapsed.toSeconds(), minBytesPerSecond / 1024));
    }

    static UploadRefusedException overQuota(String namespace, long keptBytes, int keptCount, long addBytes,
                                            DataSize quota, int maxCount) {
        return new UploadRefusedException(HttpStatus.CONTENT_TOO_LARGE, ProblemType.PACKAGE_QUOTA, "Package quota exceeded",
                ("Namespace '%s' keeps %d packages of %d MiB; this one (%d KiB) would pass its quota of %d packages "
                        + "and %d MiB (paddlejobs.packages.namespace-quota, namespace-max-count). Delete unused ones with "
                        + "DELETE /packages/{id}.").formatted(namespace, keptCount, keptBytes >> 20, addBytes >> 10, maxCount,
                        quota.toMegabytes()));
    }

    static UploadRefusedException diskFloor(long freeBytes, DataSize floor) {
        UploadRefusedException e = new UploadRefusedException(HttpStatus.INSUFFICIENT_STORAGE, ProblemType.INSUFFICIENT_STORAGE,
                "Not enough disk space", ("The package was not kept: where packages are kept has %d MiB free, below the "
                + "%d MiB the service keeps for running jobs (paddlejobs.min-free-space). Delete unused packages "
                + "or finished jobs, then upload again.").formatted(freeBytes >> 20, floor.toMegabytes()));
        e.getHeaders().set(HttpHeaders.RETRY_AFTER, "60");
        return e;
    }

    static UploadRefusedException writeFailed() {
        UploadRefusedException e = new UploadRefusedException(HttpStatus.INSUFFICIENT_STORAGE, ProblemType.INSUFFICIENT_STORAGE,
                "Not enough disk space", "The package could not be written (is the disk full?); nothing was kept. "
                + "Delete unused packages or finished jobs, then upload again.");
        e.getHeaders().set(HttpHeaders.RETRY_AFTER, "60");
        return e;
    }
}
