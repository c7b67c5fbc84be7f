package io.paddlejobs.packages;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.util.unit.DataSize;
import org.springframework.web.ErrorResponseException;

/** An upload over {@code paddlejobs.packages.max-size}: 413, saying the limit. */
class PackageTooLargeException extends ErrorResponseException {

    PackageTooLargeException(DataSize limit) {
        super(HttpStatus.CONTENT_TOO_LARGE);
        getBody().setType(ProblemType.PACKAGE_TOO_LARGE.uri());
        setTitle("Code package too large");
        setDetail("A code package may be at most " + limit.toMegabytes() + " MiB (gzipped).");
    }
}
