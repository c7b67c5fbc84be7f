package io.paddlejobs.packages;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** No such package in the namespace (another namespace's packages are not there either). */
class PackageNotFoundException extends ErrorResponseException {

    PackageNotFoundException(String namespace, String id) {
        super(HttpStatus.NOT_FOUND);
        getBody().setType(URI.create("urn:paddlejobs:problem:package-not-found"));
        setTitle("Package not found");
        setDetail("Namespace '" + namespace + "' has no package " + id + ".");
    }
}
