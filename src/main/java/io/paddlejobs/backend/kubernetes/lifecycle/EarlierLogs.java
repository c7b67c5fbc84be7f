package io.paddlejobs.backend.kubernetes.lifecycle;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ends of a restarted job's earlier attempts' logs, carried from each attempt's trainer Job to the next one's
 * in an annotation ({@link JobLabels#EARLIER_LOGS_ANNOTATION}): a restart deletes the failed attempt's pods, and
 * with them the only copy of the crash the restart was for. On the trainer Job they are shared by every replica
 * of the service, outlive its restarts, need no permission beyond the Jobs it already makes, and go with the
 * job (its delete, its TTL). An object's annotations hold 256 KiB in all, so the ends share {@link #TOTAL_BYTES}:
 * each replica's end of each attempt gets an equal part of it, at most {@link #MAX_BYTES_EACH}.
 */
public final class EarlierLogs {

    static final int TOTAL_BYTES = 128 * 1024;
    static final int MAX_BYTES_EACH = 16 * 1024;
    /** The most the annotation's JSON may take; an object's annotations hold 256 KiB in all. */
    static final int MAX_ANNOTATION_CHARS = 160 * 1024;
    /** The lines asked of the API server for each replica: more than {@link #MAX_BYTES_EACH} holds of most logs. */
    static final int TAIL_LINES = 1000;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<TreeMap<Integer, TreeMap<String, String>>> SHAPE = new TypeReference<>() {
    };

    private EarlierLogs() {
    }

    /** The kept end of a replica's log of {@code attempt}, as the trainer Job (read from the API, not the cache) carries it. */
    public static Optional<String> of(Job trainerJob, int attempt, String replica) {
        return Optional.ofNullable(read(trainerJob).getOrDefault(attempt, new TreeMap<>()).get(replica));
    }

    /**
     * The annotation's value for the next attempt's trainer Job: what the failed one carried and the ends of
     * the failed attempt's logs, each cut to its part of {@link #TOTAL_BYTES}.
     */
    static String carried(Job failedTrainerJob, int failedAttempt, Map<String, String> logs) {
        TreeMap<Integer, TreeMap<String, String>> kept = read(failedTrainerJob);
        kept.put(failedAttempt, new TreeMap<>(logs));
        int entries = Math.max(1, kept.values().stream().mapToInt(Map::size).sum());
        int each = Math.min(MAX_BYTES_EACH, TOTAL_BYTES / entries);
        String value = cut(kept, each);
        // JSON writes a control character (a terminal's colours) in six: a log of them is cut further, so that the
        // next trainer Job's annotations stay far below the API server's limit and the restart is never refused.
        while (value.length() > MAX_ANNOTATION_CHARS && each > 0) {
            each /= 2;
            value = cut(kept, each);
        }
        return value;
    }

    private static String cut(TreeMap<Integer, TreeMap<String, String>> kept, int each) {
        TreeMap<Integer, TreeMap<String, String>> cut = new TreeMap<>();
        kept.forEach((attempt, byReplica) -> {
            TreeMap<String, String> ends = new TreeMap<>();
            byReplica.forEach((replica, log) -> ends.put(replica, end(log, each)));
            cut.put(attempt, ends);
        });
        return JSON.writeValueAsString(cut);
    }

    private static TreeMap<Integer, TreeMap<String, String>> read(Job trainerJob) {
        Map<String, String> annotations = trainerJob == null ? null : trainerJob.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(JobLabels.EARLIER_LOGS_ANNOTATION);
        if (value == null || value.isBlank()) {
            return new TreeMap<>();
        }
        try {
            return JSON.readValue(value, SHAPE);
        } catch (RuntimeException unreadable) {
            return new TreeMap<>(); // not written by this service: nothing kept
        }
    }

    /** The end of {@code log} in at most {@code maxBytes} of UTF-8, from a line's start: never half a line. */
    static String end(String log, int maxBytes) {
        byte[] all = log.getBytes(StandardCharsets.UTF_8);
        if (all.length <= maxBytes) {
            return log;
        }
        int from = all.length - maxBytes;
        while (from < all.length && all[from - 1] != '\n') {
            from++;
        }
        return new String(Arrays.copyOfRange(all, from, all.length), StandardCharsets.UTF_8);
    }
}
