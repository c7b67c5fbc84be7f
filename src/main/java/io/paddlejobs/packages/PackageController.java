package io.paddlejobs.packages;

import io.paddlejobs.planning.DnsLabels;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.NamespaceAccess;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.constraints.Pattern;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Code packages, the seed's {@code trainer_package_path}: a gzipped tar of the user's code,
 * uploaded once and named by its content, which a job request then names in {@code package}.
 */
@Tag(name = "packages")
@SecurityRequirement(name = "bearer")
@RestController
@RequestMapping("/packages")
class PackageController {

    static final String GZIP = "application/gzip";

    private final PackageStore store;
    private final NamespaceAccess access;

    PackageController(PackageStore store, NamespaceAccess access) {
        this.store = store;
        this.access = access;
    }

    @Operation(summary = "Upload a code package", description = """
            A gzipped tar of files and directories (no links, no absolute paths, no '..'), at most \
            paddlejobs.packages.max-size (64 MiB by default). Answers its content address; uploading the same \
            bytes again answers the same one (200). Only the namespace that uploaded a package may use it.""",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {
                    @Content(mediaType = GZIP, schema = @Schema(type = "string", format = "binary")),
                    @Content(mediaType = "application/x-gzip", schema = @Schema(type = "string", format = "binary"))}))
    @ApiResponse(responseCode = "201", description = "Stored",
            headers = @Header(name = HttpHeaders.LOCATION, description = "The package",
                    schema = @Schema(type = "string", format = "uri-reference")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(implementation = PackageView.class)))
    @ApiResponse(responseCode = "200", description = "This namespace had uploaded these bytes already",
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(implementation = PackageView.class)))
    @PostMapping(consumes = {GZIP, "application/x-gzip"}, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<PackageView> upload(@RequestParam(required = false) @Pattern(regexp = DnsLabels.NAMESPACE) String namespace,
                                       @Parameter(hidden = true) HttpServletRequest request) throws IOException {
        String ns = access.resolve(namespace, Action.SUBMIT);
        if (request.getContentLengthLong() > store.maxSize().toBytes()) {
            throw new PackageTooLargeException(store.maxSize());
        }
        PackageStore.Stored stored = store.store(ns, request.getInputStream());
        PackageView view = new PackageView(stored.id(), ns, stored.size());
        if (!stored.created()) {
            return ResponseEntity.ok(view);
        }
        return ResponseEntity.created(URI.create("/packages/" + stored.id() + "?namespace=" + ns)).body(view);
    }

    @Operation(summary = "Download a code package", description = "Only the namespace that uploaded it may read it")
    @ApiResponse(responseCode = "200", description = "The archive as uploaded",
            content = @Content(mediaType = GZIP, schema = @Schema(type = "string", format = "binary")))
    @GetMapping(path = "/{id}", produces = GZIP)
    ResponseEntity<Resource> download(@PathVariable @Pattern(regexp = "sha256:[0-9a-f]{64}") String id,
                                      @RequestParam(required = false) @Pattern(regexp = DnsLabels.NAMESPACE) String namespace) {
        String ns = access.resolve(namespace, Action.READ);
        Path stored = store.find(ns, id).orElseThrow(() -> new PackageNotFoundException(ns, id));
        return ResponseEntity.ok().contentType(MediaType.parseMediaType(GZIP)).body(new FileSystemResource(stored));
    }
}
