package io.paddlejobs.sweeps;

import io.paddlejobs.planning.DnsLabels;
import io.paddlejobs.planning.Violation;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Runs compared side by side: a sweep's trials ({@code ?sweep=}) or any jobs ({@code ?jobs=a,b,c}), as JSON,
 * as CSV, or as a page for people (a fixed document whose script reads the JSON, as the status page does).
 */
@Tag(name = "sweeps")
@SecurityRequirement(name = "bearer")
@RestController
class CompareController {

    static final String CSV = "text/csv";
    private static final Resource PAGE = new ClassPathResource("pages/compare.html");
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile(DnsLabels.JOB_NAME);

    private final Sweeps sweeps;
    private final Comparisons comparisons;
    private final JobRequests requests;

    CompareController(Sweeps sweeps, Comparisons comparisons, JobRequests requests) {
        this.sweeps = sweeps;
        this.comparisons = comparisons;
        this.requests = requests;
    }

    @Operation(operationId = "compareRuns", summary = "Runs side by side", description = """
            A sweep's trials (sweep) or a set of jobs (jobs, comma-separated, at most 100): each run's parameters \
            (a sweep's, else the request fields in which the runs differ), each metric's last, lowest, highest and \
            best, and the requests field by field, those that differ marked. With Accept: text/csv, the table as CSV; \
            asked for by a browser, the page that charts every run's metrics overlaid.""")
    @ApiResponse(responseCode = "200", description = "The comparison", content = {
            @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = Comparison.class)),
            @Content(mediaType = CSV, schema = @Schema(type = "string"))})
    @GetMapping(path = "/compare", produces = MediaType.APPLICATION_JSON_VALUE)
    Comparison compare(@InNamespace(Action.READ) String namespace,
                       @Parameter(description = "Job names, comma-separated", schema = @Schema(type = "string",
                               pattern = "[a-z]([-a-z0-9]*[a-z0-9])?(,[a-z]([-a-z0-9]*[a-z0-9])?)*"))
                       @RequestParam(required = false) String jobs,
                       @Parameter(description = "A sweep's name: its trials", schema = @Schema(type = "string",
                               pattern = DnsLabels.JOB_NAME))
                       @RequestParam(required = false) String sweep) {
        SweepUrls urls = new SweepUrls(requests.baseUrl());
        if (sweep != null && jobs == null) {
            checkName("sweep", sweep);
            return comparisons.ofSweep(sweeps.get(new SweepKey(namespace, sweep)), urls);
        }
        if (jobs == null || sweep != null) {
            throw new SweepRejectedException(List.of(new Violation(List.of("jobs", "sweep"),
                    "give one of them: jobs=a,b,c or sweep=name", null)));
        }
        List<String> names = Arrays.asList(jobs.split(",", -1));
        if (names.size() > Comparisons.MAX_RUNS) {
            throw new SweepRejectedException(List.of(Violation.of("jobs", names.size(),
                    "names " + names.size() + " jobs; at most " + Comparisons.MAX_RUNS)));
        }
        names.forEach(name -> checkName("jobs", name));
        return comparisons.ofJobs(namespace, names, urls);
    }

    @Hidden
    @GetMapping(path = "/compare", produces = CSV)
    ResponseEntity<String> csv(@InNamespace(Action.READ) String namespace,
                               @RequestParam(required = false) String jobs,
                               @RequestParam(required = false) String sweep) {
        Comparison comparison = compare(namespace, jobs, sweep);
        String file = (sweep != null ? sweep : "jobs") + "-compared.csv";
        return ResponseEntity.ok()
                .contentType(new MediaType("text", "csv", StandardCharsets.UTF_8))
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(file).build().toString())
                .body(ComparisonCsv.of(comparison));
    }

    /** The page: public as the status page is (a navigation carries no token); its script reads the JSON with one. */
    @Hidden
    @GetMapping(path = "/compare", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<Resource> page(@InNamespace(value = Action.READ, quietly = true) String namespace) {
        return ResponseEntity.ok().contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noCache()).body(PAGE);
    }

    private static void checkName(String field, String name) {
        if (name.isEmpty() || name.length() > 40 || !NAME.matcher(name).matches()) {
            throw new SweepRejectedException(List.of(Violation.of(field, name.length() > 200 ? null : name,
                    "must name jobs or a sweep: DNS-1035 labels of 1..40 characters")));
        }
    }
}
