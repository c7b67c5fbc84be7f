package io.paddlejobs.packages;

import io.paddlejobs.problem.ProblemType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirements;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A package's content URL, which a job's pod fetches the package from: it has no token (its
 * containers get none), so the URL itself is the credential, signed for one namespace and one
 * package (see {@link ContentUrls}). The security chain lets this one path through without a token.
 */
@Tag(name = "packages")
@RestController
class PackageContentController {

    private final PackageStore store;

    PackageContentController(PackageStore store) {
        this.store = store;
    }

    @Operation(summary = "Fetch a code package by its content URL", description = """
            What a job's pod fetches its package from, without a token: the service writes this URL, with its \
            key, into the pod. The key is an HMAC of the namespace and the package; a wrong key, another \
            namespace or an unknown package are all the same 404.""")
    @ApiResponse(responseCode = "200", description = "The archive as uploaded",
            content = @Content(mediaType = PackageController.GZIP, schema = @Schema(type = "string", format = "binary")))
    @SecurityRequirements // none: the signed URL is the credential
    @GetMapping(path = "/packages/{id}/content", produces = PackageController.GZIP)
    ResponseEntity<Resource> fetchContent(@PathVariable String id,
                                          @Parameter(description = "The namespace that uploaded it")
                                          @RequestParam(required = false) String namespace,
                                          @Parameter(description = "The URL's signature")
                                          @RequestParam(required = false) String key) {
        return store.findByContentKey(namespace, id, key)
                .map(stored -> ResponseEntity.ok().contentType(MediaType.parseMediaType(PackageController.GZIP))
                        .<Resource>body(new FileSystemResource(stored)))
                .orElseThrow(PackageContentController::nothingHere);
    }

    /** The same answer whatever was wrong: it tells a guesser nothing about which packages exist. */
    private static ErrorResponseException nothingHere() {
        ErrorResponseException e = new ErrorResponseException(HttpStatus.NOT_FOUND);
        e.getBody().setType(ProblemType.PACKAGE_NOT_FOUND.uri());
        e.setTitle("Package not found");
        e.setDetail("No package at this address: the package, its namespace or the URL's key is not right.");
        return e;
    }
}
