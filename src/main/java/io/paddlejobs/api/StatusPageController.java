package io.paddlejobs.api;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.InNamespace;
import io.swagger.v3.oas.annotations.Hidden;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The pages for people behind the same URLs as the JSON: a browser asks for {@code text/html}
 * and gets a page, everything else keeps getting JSON from {@link JobController}.
 *
 * <p>When a request accepts both equally (curl's any-type default, or no Accept header), Spring MVC breaks
 * the tie by media type name, and {@code application/json} sorts before {@code text/html}: scripts
 * and curl keep getting JSON. {@code StatusPageNegotiationTests} hold that in place.
 *
 * <p>The pages are fixed documents; their scripts read the job from the JSON API and write it
 * with {@code textContent}, so nothing a user submitted is ever parsed as HTML, and no inline
 * script or style is needed (they pass {@code Content-Security-Policy: default-src 'self'}).
 */
@Hidden
@RestController
@RequestMapping(path = "/jobs", produces = MediaType.TEXT_HTML_VALUE)
class StatusPageController {

    private static final Resource STATUS_PAGE = new ClassPathResource("pages/status.html");
    private static final Resource LIST_PAGE = new ClassPathResource("pages/jobs.html");

    private final JobService jobs;

    StatusPageController(JobService jobs) {
        this.jobs = jobs;
    }

    // A job that is not there is still the page, as a 404: its script fetches the JSON and shows the problem's words.
    @GetMapping("/{name}/status")
    ResponseEntity<Resource> statusPage(@PathVariable String name,
                                        @InNamespace(value = Action.READ, quietly = true) String namespace) {
        // A browser's navigation carries no token: the page is then served as it is, and its script,
        // which sends the token, learns whether the job exists. Nobody learns it from the page's status.
        HttpStatus status = Optional.ofNullable(namespace)
                .filter(ns -> jobs.find(new JobKey(ns, name)).isEmpty())
                .map(ns -> HttpStatus.NOT_FOUND)
                .orElse(HttpStatus.OK);
        return page(status, STATUS_PAGE);
    }

    @GetMapping
    ResponseEntity<Resource> listPage() {
        return page(HttpStatus.OK, LIST_PAGE);
    }

    private static ResponseEntity<Resource> page(HttpStatus status, Resource page) {
        return ResponseEntity.status(status)
                .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noCache())
                .body(page);
    }
}
