package io.paddlejobs.sweeps;

import io.paddlejobs.job.JobService;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Violation;
import io.paddlejobs.security.Tenant;
import java.util.List;
import java.util.Map;

/**
 * What sweeps need of job requests as the HTTP layer has them (api/ implements it): a trial's request
 * is read and checked exactly as a {@code POST /jobs} body, shown as a job's spec is, and submitted
 * through the same path, limits, webhooks and audit included.
 */
public interface JobRequests {

    /** A request document read as a submit's body: the request, or every broken rule naming its field. */
    record Reading(JobRequest request, List<Violation> violations) {

        public Reading {
            violations = List.copyOf(violations);
        }
    }

    Reading read(Map<String, Object> document);

    /** The request as its wire document: flat, snake_case, absent fields left out (as {@code GET /jobs/{name}}'s spec). */
    Map<String, Object> document(JobRequest request);

    /** Where this request reached the service (its base URL, or the configured one), for URLs made later. */
    String baseUrl();

    /**
     * Submits a job as {@code POST /jobs} does for {@code owner}: their submissions per minute and their
     * namespace's quota, its webhooks registered, an audit line in their name. Refusals are the same
     * problems (a 429 for a rate or quota, a 409 for a name taken by another request).
     *
     * @param baseUrl where the job's status URL points ({@link #baseUrl} of the sweep's creating request)
     */
    JobService.Submission submit(JobRequest request, String namespace, Tenant owner, String baseUrl);
}
