package io.paddlejobs.job;

import io.paddlejobs.problem.ProblemType;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A request's {@code package} must be one its namespace uploaded, for a backend that ships packages. */
final class PackageChecks {

    private PackageChecks() {
    }

    static void require(String id, String namespace, JobBackend backend, CodePackages packages) {
        if (!backend.shipsCodePackages()) {
            throw invalid(backend.whyNoCodePackages());
        }
        if (!packages.exists(namespace, id)) {
            throw invalid("Namespace '" + namespace + "' has no package " + id + "; upload it with POST /packages first.");
        }
    }

    private static ErrorResponseException invalid(String detail) {
        ErrorResponseException e = new ErrorResponseException(HttpStatus.BAD_REQUEST);
        e.getBody().setType(ProblemType.INVALID_REQUEST.uri());
        e.setTitle("Invalid job request");
        e.setDetail("package: " + detail);
        e.getBody().setProperty("errors", List.of(Map.of("field", "package", "message", detail)));
        return e;
    }
}
