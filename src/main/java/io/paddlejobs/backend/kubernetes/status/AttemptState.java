package io.paddlejobs.backend.kubernetes.status;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.job.Attempt;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where a job stands in its restarts, as its trainer Job's annotations keep it: the cluster is the
 * only record, so that any replica of the service, or one started again, carries on with the same
 * count. A job that never restarted has none of these annotations.
 *
 * @param number     the current attempt: 0 for the first run, then the restart it is
 * @param ended      the attempts that ended before this one, oldest first
 * @param createdAt  when the job was first created; {@code null} on the first attempt (its Job's own time)
 * @param restartAt  when this attempt's replicas are started, while the job waits out its backoff; else {@code null}
 * @param restartMessage what failed and when the next attempt starts, while the job waits; else {@code null}
 */
public record AttemptState(int number, List<Attempt> ended, Instant createdAt, Instant restartAt, String restartMessage) {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<List<Map<String, String>>> ENTRIES = new TypeReference<>() {
    };

    public static final AttemptState FIRST = new AttemptState(0, List.of(), null, null, null);

    public AttemptState {
        ended = List.copyOf(ended);
    }

    public static AttemptState of(HasMetadata trainerJob) {
        Map<String, String> annotations = trainerJob.getMetadata().getAnnotations();
        if (annotations == null || !annotations.containsKey(JobLabels.ATTEMPT)) {
            return FIRST;
        }
        return new AttemptState(number(trainerJob), read(annotations.get(JobLabels.ATTEMPTS_ANNOTATION)),
                instant(annotations.get(JobLabels.CREATED_AT_ANNOTATION)),
                instant(annotations.get(JobLabels.RESTART_AT_ANNOTATION)),
                annotations.get(JobLabels.RESTART_MESSAGE_ANNOTATION));
    }

    /** The attempt an object (a Job by annotation, a pod by label) belongs to; 0 when it says none. */
    static int number(HasMetadata object) {
        Map<String, String> marks = object instanceof Pod
                ? object.getMetadata().getLabels() : object.getMetadata().getAnnotations();
        String text = marks == null ? null : marks.get(JobLabels.ATTEMPT);
        try {
            return text == null ? 0 : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1; // not an attempt of ours
        }
    }

    /** Whether the job waits out a backoff: this attempt's replicas are not started yet. */
    public boolean waiting() {
        return restartAt != null;
    }

    /** The next attempt, waiting until {@code at}: the attempt that just ended joins the record. */
    public AttemptState next(Attempt endedNow, Instant firstCreated, Instant at, String message) {
        List<Attempt> all = new ArrayList<>(ended);
        all.add(endedNow);
        return new AttemptState(number + 1, all, createdAt != null ? createdAt : firstCreated, at, message);
    }

    /** The annotations that carry this state on the next attempt's trainer Job. */
    public Map<String, String> annotations() {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(JobLabels.ATTEMPT, Integer.toString(number));
        annotations.put(JobLabels.ATTEMPTS_ANNOTATION, write(ended));
        if (createdAt != null) {
            annotations.put(JobLabels.CREATED_AT_ANNOTATION, createdAt.toString());
        }
        if (restartAt != null) {
            annotations.put(JobLabels.RESTART_AT_ANNOTATION, restartAt.toString());
            annotations.put(JobLabels.RESTART_MESSAGE_ANNOTATION, restartMessage == null ? "" : restartMessage);
        }
        return annotations;
    }

    private static String write(List<Attempt> attempts) {
        List<Map<String, String>> entries = new ArrayList<>();
        for (Attempt attempt : attempts) {
            Map<String, String> entry = new LinkedHashMap<>();
            entry.put("number", Integer.toString(attempt.number()));
            put(entry, "started_at", attempt.startedAt());
            put(entry, "finished_at", attempt.finishedAt());
            put(entry, "reason", attempt.reason());
            put(entry, "message", attempt.message());
            entries.add(entry);
        }
        return JSON.writeValueAsString(entries);
    }

    private static void put(Map<String, String> entry, String name, Object value) {
        if (value != null) {
            entry.put(name, value.toString());
        }
    }

    private static List<Attempt> read(String json) {
        if (json == null || json.isBlank()) {
            return List.of();
        }
        return JSON.readValue(json, ENTRIES).stream().map(e -> Attempt.begun(Integer.parseInt(e.get("number")),
                instant(e.get("started_at"))).ended(instant(e.get("finished_at")), e.get("reason"), e.get("message")))
                .toList();
    }

    private static Instant instant(String text) {
        return text == null || text.isBlank() ? null : Instant.parse(text);
    }
}
