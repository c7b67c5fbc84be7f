package io.paddlejobs.packages;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.util.unit.DataSize;
import org.springframework.web.ErrorResponseException;

/** An upload over {@code paddlejobs.packages.max-size}: 413, saying the limit. */
class PackageTooLargeException extends ErrorResponseException {

    PackageTooLargeException(DataSize limit) {
        super(HttpStatus.CONTENT_TOO_LARGE);
        getBody().setType(URI.create("urn:paddlejobs:problem:package-too-large"));
        setTitle("Code package too large");
        setDetail("A code package may be at most " + limit.toMegabytes() + " MiB (gzipped).");
    }
}
