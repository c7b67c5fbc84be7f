package io.paddlejobs.cluster;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The API server's own count of the requests it served ({@code apiserver_request_total} on its
 * {@code /metrics}), summed by verb and resource: what every client together cost it. The metric
 * names no client, so a caller's share is the difference between two windows that differ only in
 * that caller's work.
 */
public record ApiServerRequests(Map<String, Long> byVerbAndResource) {

    private static final Pattern LINE = Pattern.compile("^apiserver_request_total\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    /** Read now from the control plane, as its admin. */
    public static ApiServerRequests read(ControlPlane plane) {
        return parse(plane.admin().raw("/metrics"));
    }

    static ApiServerRequests parse(String metrics) {
        Map<String, Long> counts = new TreeMap<>();
        Matcher line = LINE.matcher(metrics);
        while (line.find()) {
            Map<String, String> labels = new TreeMap<>();
            Matcher label = LABEL.matcher(line.group(1));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            String resource = labels.getOrDefault("resource", "")
                    + (labels.getOrDefault("subresource", "").isEmpty() ? "" : "/" + labels.get("subresource"));
            counts.merge(labels.getOrDefault("verb", "?") + " " + resource, (long) Double.parseDouble(line.group(2)), Long::sum);
        }
        return new ApiServerRequests(counts);
    }

    /** What was served since {@code before}, by verb and resource, leaving out what did not change. */
    public ApiServerRequests since(ApiServerRequests before) {
        Map<String, Long> delta = new TreeMap<>();
        byVerbAndResource.forEach((key, count) -> {
            long d = count - before.byVerbAndResource.getOrDefault(key, 0L);
            if (d != 0) {
                delta.put(key, d);
            }
        });
        return new ApiServerRequests(delta);
    }

    public long total() {
        return byVerbAndResource.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The requests of these verbs (GET, LIST, ...) on these resources. */
    public long of(java.util.Set<String> verbs, java.util.Set<String> resources) {
        return byVerbAndResource.entrySet().stream().filter(e -> {
            String[] parts = e.getKey().split(" ", 2);
            return verbs.contains(parts[0]) && resources.contains(parts[1]);
        }).mapToLong(Map.Entry::getValue).sum();
    }
}
