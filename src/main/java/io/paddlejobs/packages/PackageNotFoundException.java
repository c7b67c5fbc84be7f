package io.paddlejobs.packages;

import io.paddlejobs.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** No such package in the namespace (another namespace's packages are not there either). */
class PackageNotFoundException extends ErrorResponseException {

    PackageNotFoundException(String namespace, String id) {
        super(HttpStatus.NOT_FOUND);
        getBody().setType(ProblemType.PACKAGE_NOT_FOUND.uri());
        setTitle("Package not found");
        setDetail("Namespace '" + namespace + "' has no package " + id + ".");
    }
}
