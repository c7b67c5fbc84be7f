package io.paddlejobs.sweeps;

import io.paddlejobs.planning.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The trials of a sweep: which value each parameter takes in each, worked out from the request alone
 * (pure, and the same every time: a service that takes a sweep over after a restart plans the same
 * trials). A grid is every combination, the first parameter varying slowest; a random search shuffles
 * a finite space with the seed and takes the first {@code max_trials}, or draws each value where a
 * range has no end of points.
 */
final class ParameterSpace {

    private ParameterSpace() {
    }

    /** The trials and what the user should know of how they were chosen. */
    record Trials(List<Map<String, Object>> assignments, List<String> warnings) {

        Trials {
            assignments = List.copyOf(assignments);
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * @throws SweepRejectedException naming every broken rule: a parameter's own, a name given twice, a
     *                                space that is empty or has no end, a grid past {@link SweepRequest#MAX_TRIALS}
     */
    static Trials trials(SweepRequest request) {
        List<Violation> violations = new ArrayList<>();
        List<SweepRequest.Parameter> parameters = request.parameters();
        List<Optional<List<Object>>> points = new ArrayList<>();
        Map<String, String> targets = new LinkedHashMap<>();
        for (int i = 0; i < parameters.size(); i++) {
            SweepRequest.Parameter parameter = parameters.get(i);
            String at = "parameters[" + i + "]";
            violations.addAll(ParameterValues.check(parameter, at));
            checkUnique(parameter.name(), at + ".name", "name", targets, violations);
            checkUnique(target(parameter), at + "." + targetField(parameter), "target", targets, violations);
        }
        if (!violations.isEmpty()) {
            throw new SweepRejectedException(violations);
        }
        parameters.forEach(parameter -> points.add(ParameterValues.points(parameter)));
        boolean finite = points.stream().allMatch(Optional::isPresent);
        if (!request.random()) {
            return grid(request, points, finite);
        }
        return random(request, points, finite);
    }

    private static Trials grid(SweepRequest request, List<Optional<List<Object>>> points, boolean finite) {
        if (!finite) {
            int at = indexOfEndless(points);
            throw new SweepRejectedException(List.of(new Violation(List.of("parameters[" + at + "].step", "search"),
                    "a grid needs every parameter's points: give values or a step, or search random with max_trials", null)));
        }
        long size = size(points);
        if (size > SweepRequest.MAX_TRIALS) {
            throw new SweepRejectedException(List.of(Violation.of("parameters", size, "make a grid of " + size
                    + " trials, more than " + SweepRequest.MAX_TRIALS + ": give fewer values, or search random with max_trials")));
        }
        List<Map<String, Object>> all = combinations(request.parameters(), points);
        return limited(request, all, "the grid");
    }

    private static Trials random(SweepRequest request, List<Optional<List<Object>>> points, boolean finite) {
        SplittableRandom random = new SplittableRandom(request.seed());
        if (finite && size(points) <= SweepRequest.MAX_TRIALS) {
            List<Map<String, Object>> all = new ArrayList<>(combinations(request.parameters(), points));
            for (int i = all.size() - 1; i > 0; i--) { // Fisher-Yates, with the seed's draws
                int j = random.nextInt(i + 1);
                all.set(j, all.set(i, all.get(j)));
            }
            return limited(request, all, "the space");
        }
        if (request.maxTrials() == null) {
            throw new SweepRejectedException(List.of(new Violation(List.of("max_trials", "parameters"),
                    "a random search over a range without a step (or over more than " + SweepRequest.MAX_TRIALS
                            + " points) has no end: give max_trials", null)));
        }
        List<Map<String, Object>> drawn = new ArrayList<>();
        for (int trial = 0; trial < request.maxTrials(); trial++) {
            Map<String, Object> assignment = new LinkedHashMap<>();
            for (int i = 0; i < request.parameters().size(); i++) {
                SweepRequest.Parameter parameter = request.parameters().get(i);
                double uniform = random.nextDouble();
                assignment.put(parameter.name(), points.get(i)
                        .map(list -> list.get((int) Math.min(list.size() - 1, (long) (uniform * list.size()))))
                        .orElseGet(() -> ParameterValues.draw(parameter, uniform)));
            }
            drawn.add(assignment);
        }
        return new Trials(drawn, List.of());
    }

    private static Trials limited(SweepRequest request, List<Map<String, Object>> all, String what) {
        Integer max = request.maxTrials();
        if (max == null || max >= all.size()) {
            List<String> warnings = max != null && max > all.size()
                    ? List.of(what + " has " + all.size() + " trials, fewer than max_trials " + max + ": each runs once")
                    : List.of();
            return new Trials(all, warnings);
        }
        return new Trials(all.subList(0, max), List.of(what + " has " + all.size() + " trials; max_trials " + max
                + " runs the first " + max + (request.random() ? " of them in the seed's order" : "")));
    }

    private static List<Map<String, Object>> combinations(List<SweepRequest.Parameter> parameters,
                                                           List<Optional<List<Object>>> points) {
        List<Map<String, Object>> combinations = new ArrayList<>();
        combinations.add(new LinkedHashMap<>());
        for (int i = 0; i < parameters.size(); i++) {
            List<Map<String, Object>> next = new ArrayList<>();
            for (Map<String, Object> partial : combinations) {
                for (Object value : points.get(i).orElseThrow()) {
                    Map<String, Object> extended = new LinkedHashMap<>(partial);
                    extended.put(parameters.get(i).name(), value);
                    next.add(extended);
                }
            }
            combinations = next;
        }
        return combinations.stream().map(java.util.Collections::unmodifiableMap).toList();
    }

    private static long size(List<Optional<List<Object>>> points) {
        long size = 1;
        for (Optional<List<Object>> list : points) {
            size = Math.min(Long.MAX_VALUE / 2, size * list.orElseThrow().size());
        }
        return size;
    }

    private static int indexOfEndless(List<Optional<List<Object>>> points) {
        for (int i = 0; i < points.size(); i++) {
            if (points.get(i).isEmpty()) {
                return i;
            }
        }
        return 0;
    }

    private static void checkUnique(String key, String field, String kind, Map<String, String> seen,
                                    List<Violation> violations) {
        if (key == null) {
            return;
        }
        String earlier = seen.putIfAbsent(kind + ":" + key, field);
        if (earlier != null) {
            violations.add(new Violation(List.of(earlier, field), kind.equals("name")
                    ? "two parameters have the name " + key : "two parameters set " + key, key));
        }
    }

    /** What a parameter sets, as one key: two parameters may not set the same one. */
    static String target(SweepRequest.Parameter parameter) {
        if (parameter.env() != null) {
            return "env." + parameter.env();
        }
        if (parameter.arg() != null) {
            return "arg " + parameter.arg();
        }
        return parameter.field();
    }

    static String targetField(SweepRequest.Parameter parameter) {
        return parameter.env() != null ? "env" : parameter.arg() != null ? "arg" : "field";
    }
}
