package io.paddlejobs.cluster;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The API server's own count of the requests it served ({@code apiserver_request_total} on its
 * {@code /metrics}), summed by verb and resource: what every client together cost it. The metric
 * names no client, so a caller's share is the difference between two windows that differ only in
 * that caller's work. Each count is also kept by the request's scope ({@code cluster}, {@code namespace},
 * {@code resource}): a controller's relist of a whole resource is cluster-wide, a namespaced client's never.
 */
public record ApiServerRequests(Map<String, Long> byVerbResourceAndScope) {

    private static final Pattern LINE = Pattern.compile("^apiserver_request_total\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    /** Read now from the control plane, as its admin. */
    public static ApiServerRequests read(ControlPlane plane) {
        return parse(plane.admin().raw("/metrics"));
    }

    static ApiServerRequests parse(String metrics) {
        Map<String, Long> scoped = new TreeMap<>();
        Matcher line = LINE.matcher(metrics);
        while (line.find()) {
            Map<String, String> labels = new TreeMap<>();
            Matcher label = LABEL.matcher(line.group(1));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            String resource = labels.getOrDefault("resource", "")
                    + (labels.getOrDefault("subresource", "").isEmpty() ? "" : "/" + labels.get("subresource"));
            scoped.merge(labels.getOrDefault("verb", "?") + " " + resource + " " + labels.getOrDefault("scope", ""),
                    (long) Double.parseDouble(line.group(2)), Long::sum);
        }
        return new ApiServerRequests(scoped);
    }

    /** What was served since {@code before}, leaving out what did not change. */
    public ApiServerRequests since(ApiServerRequests before) {
        Map<String, Long> delta = new TreeMap<>();
        byVerbResourceAndScope.forEach((key, count) -> {
            long d = count - before.byVerbResourceAndScope.getOrDefault(key, 0L);
            if (d != 0) {
                delta.put(key, d);
            }
        });
        return new ApiServerRequests(delta);
    }

    /** The counts by verb and resource, whatever their scope. */
    public Map<String, Long> byVerbAndResource() {
        Map<String, Long> counts = new TreeMap<>();
        byVerbResourceAndScope.forEach((key, count) -> counts.merge(key.substring(0, key.lastIndexOf(' ')), count, Long::sum));
        return counts;
    }

    public long total() {
        return byVerbResourceAndScope.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The requests of these verbs (GET, LIST, ...) on these resources. */
    public long of(Set<String> verbs, Set<String> resources) {
        return of(verbs, resources, Set.of("cluster", "namespace", "resource", ""));
    }

    /** The requests of these verbs on these resources, in these scopes ({@code cluster}, {@code namespace}, {@code resource}). */
    public long of(Set<String> verbs, Set<String> resources, Set<String> scopes) {
        return byVerbResourceAndScope.entrySet().stream().filter(e -> {
            String[] parts = e.getKey().split(" ", 3);
            return verbs.contains(parts[0]) && resources.contains(parts[1]) && scopes.contains(parts.length > 2 ? parts[2] : "");
        }).mapToLong(Map.Entry::getValue).sum();
    }
}
