package io.paddlejobs.backend.slurm.client;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Which of slurmrestd's data parsers the REST client speaks: the newest the server offers (the
 * {@code /slurm/vX/job/submit} paths of its {@code GET /openapi/v3}) among those this client knows,
 * or the one {@code paddlejobs.slurm.rest-version} pins. Slurm drops a parser a few releases after
 * adding it, so a server that offers none of ours is refused at start-up, in words.
 */
final class SlurmRestVersions {

    /** What this client speaks, oldest first. */
    static final List<String> SPOKEN = List.of("v0.0.38", "v0.0.40", "v0.0.41", "v0.0.42", "v0.0.43", "v0.0.44",
            "v0.0.45");

    private static final Pattern SUBMIT = Pattern.compile("^/slurm/(v\\d+\\.\\d+\\.\\d+)/job/submit/?$");
    private static final Comparator<String> BY_NUMBER = Comparator.comparingInt(SlurmRestVersions::minor);

    private SlurmRestVersions() {
    }

    /** The data parsers a server's OpenAPI document offers, oldest first. */
    static List<String> offered(JsonNode openapi) {
        TreeSet<String> versions = new TreeSet<>(BY_NUMBER);
        for (String path : openapi.path("paths").propertyNames()) {
            Matcher m = SUBMIT.matcher(path);
            if (m.matches()) {
                versions.add(m.group(1));
            }
        }
        return List.copyOf(versions);
    }

    /** The server's Slurm release, where its document says ({@code Slurm 26.05.5}); empty for 22.05's. */
    static String release(JsonNode openapi) {
        String release = openapi.path("info").path("x-slurm").path("release").asString("");
        return release.isEmpty() ? "" : "Slurm " + release;
    }

    /** Refuses a pinned version this client does not speak, before anything is asked of the server. */
    static void requireSpoken(String pinned) {
        if (!pinned.isEmpty() && !SPOKEN.contains(pinned)) {
            throw new IllegalStateException("paddlejobs.slurm.rest-version=%s is not one this service speaks (%s)"
                    .formatted(pinned, String.join(", ", SPOKEN)));
        }
    }

    /**
     * @param pinned  {@code paddlejobs.slurm.rest-version}, empty for the newest both sides know
     * @param server  how to name the server in an error ({@code slurmrestd at http://... (Slurm 26.05.5)})
     */
    static String choose(List<String> offered, String pinned, String server) {
        requireSpoken(pinned);
        if (!pinned.isEmpty()) {
            if (!offered.contains(pinned)) {
                throw new IllegalStateException("paddlejobs.slurm.rest-version=%s, but %s offers %s"
                        .formatted(pinned, server, words(offered)));
            }
            return pinned;
        }
        Optional<String> newest = offered.stream().filter(SPOKEN::contains).max(BY_NUMBER);
        return newest.orElseThrow(() -> new IllegalStateException(
                "%s offers %s; this service speaks %s: use client=cli, or a slurmrestd with one of those"
                        .formatted(server, words(offered), String.join(", ", SPOKEN))));
    }

    private static String words(List<String> offered) {
        return offered.isEmpty() ? "no job submit API (no /slurm/v.../job/submit path)" : String.join(", ", offered);
    }

    private static int minor(String version) {
        String[] parts = version.substring(1).split("\\.");
        return Integer.parseInt(parts[0]) * 1_000_000 + Integer.parseInt(parts[1]) * 1_000 + Integer.parseInt(parts[2]);
    }
}
