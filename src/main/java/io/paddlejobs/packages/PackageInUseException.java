package io.paddlejobs.packages;

import io.paddlejobs.problem.ProblemType;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A package that unfinished jobs name is not deleted: 409, naming them. */
class PackageInUseException extends ErrorResponseException {

    PackageInUseException(String namespace, String id, List<String> jobs) {
        super(HttpStatus.CONFLICT);
        getBody().setType(ProblemType.PACKAGE_IN_USE.uri());
        setTitle("Package in use");
        List<String> named = jobs.size() > 20 ? jobs.subList(0, 20) : jobs;
        setDetail("Package %s of namespace '%s' is named by %d unfinished job%s (%s%s); delete it once they have finished."
                .formatted(id, namespace, jobs.size(), jobs.size() == 1 ? "" : "s", String.join(", ", named),
                        jobs.size() > named.size() ? ", ..." : ""));
        getBody().setProperty("jobs", named);
    }
}
