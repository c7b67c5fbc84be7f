package io.paddlejobs.backend.slurm;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Slurm through slurmrestd's {@code openapi/v0.0.38} (Slurm 22.05), authenticated with a JWT the
 * service mints from the cluster's HS256 key. For hosts without Slurm's tools or munge. The API
 * version is tied to Slurm's release, which is why the command line is the default.
 */
final class SlurmRest implements SlurmClient {

    private static final String API = "/slurm/v0.0.38";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    // slurmrestd answers the JDK's default HTTP/2 upgrade with 405 and closes the connection.
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT).build();
    private final JsonMapper json = JsonMapper.builder().build();
    private final URI base;
    private final JsonWebTokens tokens;
    private final String replicaPath;

    SlurmRest(URI base, JsonWebTokens tokens, String replicaPath) {
        this.base = base;
        this.tokens = tokens;
        this.replicaPath = replicaPath;
    }

    static SlurmRest of(SlurmProperties properties) {
        if (properties.jwtKey() == null) {
            throw new IllegalStateException("paddlejobs.slurm.jwt-key must name the cluster's JWT key for client=rest");
        }
        try {
            return new SlurmRest(properties.restUrl(), new JsonWebTokens(Files.readAllBytes(properties.jwtKey()),
                    properties.restUser()), properties.replicaPath());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the JWT key " + properties.jwtKey() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public long submit(BatchJob job) {
        ObjectNode body = json.createObjectNode();
        body.put("script", "#!/bin/bash\n" + job.body());
        List<ObjectNode> components = new ArrayList<>();
        for (BatchJob.Component component : job.components()) {
            components.add(properties(job, component));
        }
        if (components.size() == 1) {
            body.set("job", components.get(0));
        } else {
            ArrayNode array = body.putArray("jobs");
            components.forEach(array::add);
        }
        JsonNode answer = call("submit the job", "POST", "/job/submit", body.toString());
        return answer.path("job_id").asLong();
    }

    private ObjectNode properties(BatchJob job, BatchJob.Component component) {
        ObjectNode p = json.createObjectNode();
        p.put("name", job.name());
        p.put("current_working_directory", job.workDir().toString());
        p.put("standard_output", job.output().toString());
        p.put("standard_error", job.output().toString());
        p.put("requeue", false);
        // The REST daemon passes no environment of its own: the batch step gets only this.
        p.putObject("environment").put("PATH", replicaPath);
        p.put("tasks", component.tasks());
        p.put("cpus_per_task", component.cpusPerTask());
        p.put("memory_per_cpu", component.memoryPerCpuMb());
        if (component.gpusPerTask() > 0) {
            p.put("gpus_per_task", Integer.toString(component.gpusPerTask()));
        }
        if (job.timeLimitMinutes() > 0) {
            p.put("time_limit", job.timeLimitMinutes());
        }
        if (!job.partition().isEmpty()) {
            p.put("partition", job.partition());
        }
        if (!job.account().isEmpty()) {
            p.put("account", job.account());
        }
        return p;
    }

    @Override
    public List<SlurmJobInfo> jobs() {
        List<SlurmJobInfo> jobs = new ArrayList<>();
        for (JsonNode j : call("list its jobs", "GET", "/jobs", null).path("jobs")) {
            int status = j.path("exit_code").asInt();
            jobs.add(new SlurmJobInfo(j.path("job_id").asLong(), j.path("het_job_id").asLong(),
                    j.path("het_job_offset").asInt(), j.path("name").asText(), j.path("job_state").asText(),
                    j.path("state_reason").asText("None"),
                    // a raw wait status: exit code in the high byte, signal in the low bits
                    (status >> 8) & 0xff, status & 0x7f, j.path("nodes").asText(""), j.path("time_limit").asLong(),
                    epoch(j.path("start_time").asLong()), epoch(j.path("end_time").asLong())));
        }
        return jobs;
    }

    @Override
    public void cancel(long jobId) {
        try {
            call("cancel job " + jobId, "DELETE", "/job/" + jobId, null);
        } catch (SlurmException e) {
            // As scancel: a job that has ended, or that Slurm has forgotten, is cancelled enough.
            String detail = String.valueOf(e.getBody().getDetail());
            if (!detail.contains("Invalid job id") && !detail.contains("already completing or completed")) {
                throw e;
            }
        }
    }

    private static Instant epoch(long seconds) {
        return seconds > 0 ? Instant.ofEpochSecond(seconds) : null;
    }

    private JsonNode call(String action, String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(API + path)).timeout(TIMEOUT)
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
                        ? errors.get(0).path("error").asText(errors.get(0).toString())
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
