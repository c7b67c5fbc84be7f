package io.paddlejobs.backend.slurm.client;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads one line of {@code scontrol -o show job}: {@code Key=Value} pairs separated by spaces.
 *
 * <p>A job's name is the first thing in the line its owner chose, and it may hold spaces and {@code =}:
 * every job of the service's shared Slurm user can submit a job named {@code "x HetJobId=7
 * HetJobOffset=1 JobState=FAILED"}. So the ids that say which job a line belongs to are read only
 * before {@code JobName=}, where scontrol writes them ({@code JobId}, then {@code HetJobId} and
 * {@code HetJobOffset} for a component); what a name forges after it can only misstate the forger's own
 * line, which the service matches to none of its jobs (their names are DNS labels, without spaces).
 */
final class ScontrolJobs {

    /** A space followed by the next key; a value may itself hold spaces (a job name, a command). */
    private static final Pattern FIELD_BOUNDARY = Pattern.compile(" (?=[A-Za-z][A-Za-z0-9_/:]*=)");
    private static final String NAME = " JobName=";

    private ScontrolJobs() {
    }

    static SlurmJobInfo parse(String line) {
        String stripped = line.strip();
        int name = stripped.indexOf(NAME);
        Map<String, String> ids = fields(name < 0 ? stripped : stripped.substring(0, name));
        Map<String, String> fields = name < 0 ? Map.of() : fields(stripped.substring(name + 1));
        String[] exit = fields.getOrDefault("ExitCode", "0:0").split(":");
        return new SlurmJobInfo(
                number(ids.get("JobId")),
                number(ids.get("HetJobId")),
                (int) number(ids.get("HetJobOffset")),
                fields.getOrDefault("JobName", ""),
                fields.getOrDefault("JobState", "UNKNOWN"),
                fields.getOrDefault("Reason", "None"),
                (int) number(exit[0]),
                exit.length > 1 ? (int) number(exit[1]) : 0,
                fields.getOrDefault("NodeList", ""),
                minutes(fields.getOrDefault("TimeLimit", "UNLIMITED")),
                time(fields.get("StartTime")),
                time(fields.get("EndTime")));
    }

    /** The line's {@code Key=Value} fields, the first of each key. */
    private static Map<String, String> fields(String text) {
        Map<String, String> fields = new HashMap<>();
        for (String field : FIELD_BOUNDARY.split(text)) {
            int eq = field.indexOf('=');
            if (eq > 0) {
                fields.putIfAbsent(field.substring(0, eq), field.substring(eq + 1).strip());
            }
        }
        return fields;
    }

    private static long number(String text) {
        if (text == null) {
            return 0;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Slurm's {@code [days-]hours:minutes:seconds}, {@code minutes:seconds} or {@code UNLIMITED} (0). */
    static long minutes(String text) {
        if (!text.matches("(\\d+-)?\\d+(:\\d+){0,2}")) {
            return 0;
        }
        long days = 0;
        String clock = text;
        int dash = text.indexOf('-');
        if (dash > 0) {
            days = Long.parseLong(text.substring(0, dash));
            clock = text.substring(dash + 1);
        }
        String[] parts = clock.split(":");
        long seconds = switch (parts.length) {
            case 3 -> Long.parseLong(parts[0]) * 3600 + Long.parseLong(parts[1]) * 60 + Long.parseLong(parts[2]);
            case 2 -> Long.parseLong(parts[0]) * 60 + Long.parseLong(parts[1]);
            default -> Long.parseLong(parts[0]) * 60;
        };
        return days * 24 * 60 + (seconds + 59) / 60;
    }

    /** scontrol writes the controller's local time without a zone; {@code Unknown} or {@code None} is null. */
    private static Instant time(String text) {
        if (text == null) {
            return null;
        }
        try {
            return LocalDateTime.parse(text).atZone(ZoneId.systemDefault()).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
