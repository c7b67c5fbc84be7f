package io.paddlejobs.backend.slurm.client;

import io.paddlejobs.backend.slurm.SlurmProperties;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Slurm through slurmrestd, authenticated with a JWT the service mints from the cluster's HS256
 * key. For hosts without Slurm's tools or munge. Its API versions come and go with Slurm's
 * releases, so it asks the server which it offers and speaks the newest both know
 * ({@link SlurmRestVersions}); how each writes a job down is a {@link SlurmRestDialect}.
 */
public final class SlurmRest implements SlurmClient {

    private static final Logger log = LoggerFactory.getLogger(SlurmRest.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    // slurmrestd answers the JDK's default HTTP/2 upgrade with 405 and closes the connection.
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT).build();
    private final JsonMapper json = JsonMapper.builder().build();
    private final URI base;
    private final JsonWebTokens tokens;
    private final String replicaPath;
    private final SlurmRestDialect dialect;

    /** Asks the server which data parsers it offers (unless {@code pinned} and it cannot be reached). */
    private SlurmRest(URI base, JsonWebTokens tokens, String replicaPath, String pinned) {
        this.base = base;
        this.tokens = tokens;
        this.replicaPath = replicaPath;
        this.dialect = SlurmRestDialect.of(agree(pinned));
    }

    /** A client for the server {@code rest-url} names, speaking the version it agreed with it. */
    public static SlurmRest of(SlurmProperties properties) {
        if (properties.jwtKey() == null) {
            throw new IllegalStateException("paddlejobs.slurm.jwt-key must name the cluster's JWT key for client=rest");
        }
        SlurmRestVersions.requireSpoken(properties.restVersion());
        JsonWebTokens tokens;
        try {
            tokens = new JsonWebTokens(Files.readAllBytes(properties.jwtKey()), properties.restUser());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the JWT key " + properties.jwtKey() + ": " + e.getMessage(), e);
        }
        return new SlurmRest(properties.restUrl(), tokens, properties.replicaPath(), properties.restVersion());
    }

    /** The data parser this client speaks with its server. */
    public String version() {
        return dialect.version();
    }

    private String agree(String pinned) {
        JsonNode openapi;
        try {
            openapi = call("list its API versions", "GET", "/openapi/v3", null);
        } catch (SlurmException e) {
            if (!pinned.isEmpty()) {
                // Pinned: the service can start before slurmrestd does, as with the command line.
                log.warn("slurmrestd at {} did not say which API versions it offers ({}); speaking the pinned {}",
                        base, e.getBody().getDetail(), pinned);
                return pinned;
            }
            throw new IllegalStateException(e.getBody().getDetail()
                    + "; set paddlejobs.slurm.rest-version to start without asking", e);
        }
        String release = SlurmRestVersions.release(openapi);
        String server = "slurmrestd at " + base + (release.isEmpty() ? "" : " (" + release + ")");
        String version = SlurmRestVersions.choose(SlurmRestVersions.offered(openapi), pinned, server);
        log.info("{}: speaking its data parser {}", server, version);
        return version;
    }

    @Override
    public long submit(BatchJob job) {
        JsonNode answer = call("submit the job", "POST", api("/job/submit"),
                dialect.submitBody(json, job, replicaPath).toString());
        return answer.path("job_id").asLong();
    }

    @Override
    public List<SlurmJobInfo> jobs() {
        List<SlurmJobInfo> jobs = new ArrayList<>();
        for (JsonNode j : call("list its jobs", "GET", api("/jobs/"), null).path("jobs")) {
            jobs.add(dialect.job(j));
        }
        return jobs;
    }

    @Override
    public void cancel(long jobId) {
        String action = "cancel job " + jobId;
        JsonNode answer;
        try {
            answer = call(action, "DELETE", api("/job/" + jobId), null);
        } catch (SlurmException e) {
            if (!cancelledEnough(String.valueOf(e.getBody().getDetail()))) {
                throw e;
            }
            return;
        }
        // v0.0.42 and later answer 200 with one status per component, each with its own error.
        for (JsonNode status : answer.path("status")) {
            String error = status.path("error").path("string").asString("");
            if (!error.isEmpty() && !cancelledEnough(error)) {
                throw new SlurmException(action, error, null);
            }
        }
    }

    @Override
    public void terminate(long jobId) {
        String action = "send SIGTERM to job " + jobId;
        JsonNode answer = call(action, "DELETE", api("/job/" + jobId + "?signal=SIGTERM"), null);
        // v0.0.42 and later answer 200 with one status per component, each with its own error.
        for (JsonNode status : answer.path("status")) {
            String error = status.path("error").path("string").asString("");
            if (!error.isEmpty()) {
                throw new SlurmException(action, error, null);
            }
        }
    }

    /** As scancel: a job that has ended, or that Slurm has forgotten, is cancelled enough. */
    private static boolean cancelledEnough(String words) {
        return words.contains("Invalid job id") || words.contains("already completing or completed");
    }

    private String api(String path) {
        return "/slurm/" + dialect.version() + path;
    }

    private JsonNode call(String action, String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .header("X-SLURM-USER-NAME", tokens.user()).header("X-SLURM-USER-TOKEN", tokens.current());
        if (body != null) {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode answer = response.body().isBlank() ? json.createObjectNode() : json.readTree(response.body());
            // slurmrestd reports most refusals as HTTP 500 with an errors[] body.
            JsonNode errors = answer.path("errors");
            if (response.statusCode() >= 400 || (errors.isArray() && !errors.isEmpty())) {
                String words = errors.isArray() && !errors.isEmpty()
                        ? errors.get(0).path("error").asString(errors.get(0).toString())
                        : "HTTP " + response.statusCode();
                throw new SlurmException(action, words, null);
            }
            return answer;
        } catch (IOException e) {
            throw new SlurmException(action, "slurmrestd at " + base + " did not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlurmException(action, "interrupted", e);
        } catch (RuntimeException e) {
            if (e instanceof SlurmException) {
                throw e;
            }
            throw new SlurmException(action, "slurmrestd's answer could not be read: " + e.getMessage(), e);
        }
    }
}
