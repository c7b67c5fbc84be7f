package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The request's {@code restart_on}: which failures start the job again. On the wire it is one word
 * ({@code any}, {@code infrastructure}, {@code stall}) or a list of words and exit codes
 * ({@code ["infrastructure", 1, 134]}).
 *
 * @param any            every failure of a replica (not a stall, which is only a warning unless named)
 * @param infrastructure what happened to the job from outside: a lost node, an eviction or
 *                       preemption, a kill by signal from outside, an out-of-memory kill, the service's restart
 * @param stall          no trainer printed or reported a metric for {@code stall_timeout}
 * @param exitCodes      a replica's own exit with one of these codes
 */
public record RestartOn(boolean any, boolean infrastructure, boolean stall, Set<Integer> exitCodes) {

    /** What a request with {@code max_restarts} above 0 and no {@code restart_on} retries. */
    public static final RestartOn ANY = new RestartOn(true, false, false, Set.of());
    public static final String WORDS = "any, infrastructure, stall";

    public RestartOn {
        exitCodes = Set.copyOf(exitCodes);
    }

    /** How a replica's failure came about, as a backend tells it. */
    public enum Cause {
        /** The program's own non-zero exit (a crash by SIGSEGV or SIGABRT included). */
        EXIT,
        /** Something outside the program ended it: a kill by signal, an eviction, a node lost, out of memory. */
        INFRASTRUCTURE,
        /** No trainer gave a sign of life for {@code stall_timeout}. */
        STALL
    }

    /** Whether a failure of this cause (and, for an exit, this code) is retried. */
    public boolean retries(Cause cause, Integer exitCode) {
        return switch (cause) {
            case STALL -> stall;
            case INFRASTRUCTURE -> any || infrastructure || exitCode != null && exitCodes.contains(exitCode);
            case EXIT -> any || exitCode != null && exitCodes.contains(exitCode);
        };
    }

    /**
     * Reads the wire form: a word, or a list of words and exit codes (numbers, or their digits as text).
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static RestartOn parse(Object wire) {
        List<?> items = wire instanceof List<?> list ? list : List.of(wire == null ? "" : wire);
        if (items.isEmpty()) {
            throw new IllegalArgumentException("must name at least one failure to restart on");
        }
        boolean any = false;
        boolean infrastructure = false;
        boolean stall = false;
        Set<Integer> codes = new TreeSet<>();
        for (Object item : items) {
            String text = item == null ? "" : item.toString().strip().toLowerCase(Locale.ROOT);
            switch (text) {
                case "any" -> any = true;
                case "infrastructure" -> infrastructure = true;
                case "stall" -> stall = true;
                default -> codes.add(exitCode(item, text));
            }
        }
        return new RestartOn(any, infrastructure, stall, codes);
    }

    private static int exitCode(Object item, String text) {
        if (!(item instanceof Number || item instanceof String) || !text.matches("[0-9]{1,3}")) {
            throw new IllegalArgumentException("'%s' is neither one of %s nor an exit code".formatted(item, WORDS));
        }
        int code = Integer.parseInt(text);
        if (code < 1 || code > 255) {
            throw new IllegalArgumentException("exit code %d is not one a failed process can have (1..255)".formatted(code));
        }
        return code;
    }

    /** The wire form: one word where one word says it, else the list of words and codes. */
    public Object wire() {
        List<Object> items = new ArrayList<>();
        if (any) {
            items.add("any");
        }
        if (infrastructure) {
            items.add("infrastructure");
        }
        if (stall) {
            items.add("stall");
        }
        items.addAll(new TreeSet<>(exitCodes));
        return items.size() == 1 && items.get(0) instanceof String word ? word : List.copyOf(items);
    }
}
