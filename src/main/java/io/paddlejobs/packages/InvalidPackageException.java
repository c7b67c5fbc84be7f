package io.paddlejobs.packages;

import io.paddlejobs.problem.ProblemType;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** An upload that is not a safe gzipped tar: 400. */
class InvalidPackageException extends ErrorResponseException {

    InvalidPackageException(String field, String detail) {
        super(HttpStatus.BAD_REQUEST);
        getBody().setType(ProblemType.INVALID_PACKAGE.uri());
        setTitle("Invalid code package");
        setDetail(detail);
        getBody().setProperty("errors", List.of(Map.of("field", field, "message", detail)));
    }

    static InvalidPackageException badArchive(String why) {
        return new InvalidPackageException("body", "The package is not a safe gzipped tar: " + why + ".");
    }
}
