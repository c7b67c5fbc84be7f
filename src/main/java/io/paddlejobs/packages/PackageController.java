package io.paddlejobs.packages;

import io.paddlejobs.job.JobService;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.paddlejobs.security.AuditLog;
import io.paddlejobs.security.AuditOutcome;
import io.paddlejobs.security.NamespaceAccess;
import io.paddlejobs.security.SubmissionRateLimit;
import io.paddlejobs.security.Tenant;
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
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Code packages (the 2017 cluster-job proposal's {@code trainer_package_path}): a gzipped tar of the user's code,
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
    private final UploadLimits limits;
    private final SubmissionRateLimit rate;
    private final AuditLog audit;
    private final JobService jobs;

    PackageController(PackageStore store, NamespaceAccess access, UploadLimits limits, SubmissionRateLimit rate,
                      AuditLog audit, JobService jobs) {
        this.store = store;
        this.access = access;
        this.limits = limits;
        this.rate = rate;
        this.audit = audit;
        this.jobs = jobs;
    }

    @Operation(summary = "Upload a code package", description = """
            A gzipped tar of files and directories (no links, devices or FIFOs, no absolute paths, no '..', no name \
            twice), at most paddlejobs.packages.max-size (64 MiB by default). Answers its content address; uploading \
            the same bytes again answers the same one (200). Only the namespace that uploaded a package may use it. \
            A new package counts against the caller's submissions per minute and the namespace's package quota; a \
            user has at most max-uploads-per-user uploads in flight, each keeping 64 KiB/s after its first 10 \
            seconds.""",
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
    ResponseEntity<PackageView> upload(@InNamespace(Action.SUBMIT) String namespace,
                                       @Parameter(hidden = true) HttpServletRequest request) {
        return audit.recordPackage("upload", namespace, null, () -> uploadWithinLimits(namespace, request),
                answer -> answer.getStatusCode().value() == 201 ? AuditOutcome.CREATED : AuditOutcome.EXISTING,
                answer -> answer.getBody().id());
    }

    /** A new package spends one of the caller's submissions; an identical one, or a refused one, gives it back. */
    private ResponseEntity<PackageView> uploadWithinLimits(String namespace, HttpServletRequest request) {
        if (request.getContentLengthLong() > store.maxSize().toBytes()) {
            throw new PackageTooLargeException(store.maxSize());
        }
        Tenant tenant = access.tenant().orElseThrow();
        try (var slot = limits.take(tenant.user()); var permit = rate.take(tenant)) {
            PackageStore.Stored stored = store.store(namespace, limits.paced(request.getInputStream()));
            PackageView view = new PackageView(stored.id(), namespace, stored.size());
            if (!stored.created()) {
                return ResponseEntity.ok(view);
            }
            permit.spend();
            return ResponseEntity.created(URI.create("/packages/" + stored.id() + "?namespace=" + namespace)).body(view);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Operation(operationId = "listPackages", summary = "List a namespace's code packages, oldest first",
            description = "With each its size, when it was uploaded and last used, and the unfinished jobs that name it")
    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    PackageListView list(@InNamespace(Action.LIST) String namespace)
            throws IOException {
        Map<String, List<String>> users = jobs.unfinishedJobsByPackage(namespace);
        return new PackageListView(store.list(namespace).stream().map(kept -> new PackageListView.Item(kept.id(), kept.size(),
                kept.created(), kept.lastUsed(), users.getOrDefault(kept.id(), List.of()))).toList());
    }

    @Operation(operationId = "deletePackage", summary = "Delete a code package that no unfinished job names",
            description = "A package that unfinished jobs name is a 409 naming them; finished jobs keep their copy")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @DeleteMapping("/{id}")
    ResponseEntity<Void> delete(@PathVariable @Pattern(regexp = "sha256:[0-9a-f]{64}") String id,
                                @InNamespace(Action.DELETE) String namespace) {
        return audit.recordPackage("delete-package", namespace, id, () -> {
            List<String> users = jobs.unfinishedJobsByPackage(namespace).getOrDefault(id, List.of());
            if (!users.isEmpty()) {
                throw new PackageInUseException(namespace, id, users);
            }
            try {
                if (!store.delete(namespace, id)) {
                    throw new PackageNotFoundException(namespace, id);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return ResponseEntity.noContent().<Void>build();
        }, response -> AuditOutcome.DELETED, response -> id);
    }

    @Operation(summary = "Download a code package", description = "Only the namespace that uploaded it may read it")
    @ApiResponse(responseCode = "200", description = "The archive as uploaded",
            content = @Content(mediaType = GZIP, schema = @Schema(type = "string", format = "binary")))
    @GetMapping(path = "/{id}", produces = GZIP)
    ResponseEntity<Resource> download(@PathVariable @Pattern(regexp = "sha256:[0-9a-f]{64}") String id,
                                      @InNamespace(Action.READ) String namespace) {
        Path stored = store.find(namespace, id).orElseThrow(() -> new PackageNotFoundException(namespace, id));
        return ResponseEntity.ok().contentType(MediaType.parseMediaType(GZIP)).body(new FileSystemResource(stored));
    }
}
