package io.paddlejobs.sweeps;

import io.paddlejobs.planning.Violation;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The values one parameter takes: its list as given, or the points of a stepped range; empty for a range
 * without a step, which a random search draws from ({@link #draw}). Values are {@code String}, {@code Long}
 * or {@code Double}; {@link #text} is how one reaches an environment variable or a command line.
 */
final class ParameterValues {

    /** Digits a drawn number keeps: enough to tell trials apart, few enough to read in a table. */
    private static final MathContext DRAWN = new MathContext(6);

    private ParameterValues() {
    }

    /** The rules of one parameter on its own, each a violation naming {@code parameters[i]}'s field. */
    static List<Violation> check(SweepRequest.Parameter parameter, String at) {
        List<Violation> violations = new ArrayList<>();
        int targets = (parameter.env() != null ? 1 : 0) + (parameter.arg() != null ? 1 : 0) + (parameter.field() != null ? 1 : 0);
        if (targets != 1) {
            violations.add(new Violation(List.of(at + ".env", at + ".arg", at + ".field"),
                    "give exactly one of env, arg and field: where the value goes", null));
        }
        boolean range = parameter.min() != null || parameter.max() != null || parameter.step() != null;
        if (parameter.values() != null && range) {
            violations.add(new Violation(List.of(at + ".values", at + ".min", at + ".max"),
                    "give values, or a range (min, max, step), not both", null));
            return violations;
        }
        if (parameter.values() == null) {
            checkRange(parameter, at, violations);
        } else {
            checkValues(parameter, at, violations);
        }
        return violations;
    }

    private static void checkValues(SweepRequest.Parameter parameter, String at, List<Violation> violations) {
        if (parameter.scale() != null || parameter.integer() != null) {
            violations.add(Violation.of(at + ".scale", parameter.scale(), "scale and integer are for a range, not values"));
        }
        Set<Object> seen = new HashSet<>();
        List<Object> values = parameter.values();
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            String field = at + ".values[" + i + "]";
            if (!(value instanceof String) && !(value instanceof Number)) {
                violations.add(Violation.of(field, null, "must be a string or a number"));
            } else if (value instanceof Number number && !Double.isFinite(number.doubleValue())) {
                violations.add(Violation.of(field, null, "must be a finite number"));
            } else if (value instanceof String s && (s.length() > 1024 || s.indexOf('\0') >= 0)) {
                violations.add(Violation.of(field, null, "must be at most 1024 characters, without NUL"));
            } else if (!seen.add(normal(value))) {
                violations.add(Violation.of(field, value, "repeats an earlier value: every trial would run twice"));
            }
        }
    }

    private static void checkRange(SweepRequest.Parameter parameter, String at, List<Violation> violations) {
        if (parameter.min() == null || parameter.max() == null) {
            violations.add(new Violation(List.of(at + ".values", at + ".min", at + ".max"),
                    "give values, or a range with both min and max", null));
            return;
        }
        double min = parameter.min();
        double max = parameter.max();
        if (!Double.isFinite(min) || !Double.isFinite(max) || !(min < max)) {
            violations.add(new Violation(List.of(at + ".min", at + ".max"),
                    "must be finite with min below max: the range " + min + " to " + max + " is empty", null));
            return;
        }
        if (parameter.logScale() && min <= 0) {
            violations.add(Violation.of(at + ".min", min, "must be above 0 on a log scale"));
        }
        if (Boolean.TRUE.equals(parameter.integer()) && Math.ceil(min) > Math.floor(max)) {
            violations.add(new Violation(List.of(at + ".min", at + ".max"),
                    "hold no whole number, and integer asks for whole numbers", null));
        }
        Double step = parameter.step();
        if (step != null) {
            if (!Double.isFinite(step) || step <= 0) {
                violations.add(Violation.of(at + ".step", step, "must be above 0"));
            } else if (parameter.logScale()) {
                violations.add(Violation.of(at + ".scale", "log", "a stepped range is linear: give values for other points"));
            } else if ((max - min) / step >= SweepRequest.MAX_TRIALS) {
                violations.add(Violation.of(at + ".step", step, "gives more than " + SweepRequest.MAX_TRIALS
                        + " points from " + min + " to " + max));
            }
        }
    }

    /** The points of a list or a stepped range; empty for a range without a step (it has no end of points). */
    static Optional<List<Object>> points(SweepRequest.Parameter parameter) {
        if (parameter.values() != null) {
            return Optional.of(parameter.values().stream().map(ParameterValues::normal).toList());
        }
        if (parameter.step() == null) {
            return Optional.empty();
        }
        BigDecimal min = BigDecimal.valueOf(parameter.min());
        BigDecimal step = BigDecimal.valueOf(parameter.step());
        BigDecimal max = BigDecimal.valueOf(parameter.max());
        boolean whole = isWhole(min) && isWhole(step);
        List<Object> points = new ArrayList<>();
        for (BigDecimal point = min; point.compareTo(max) <= 0; point = point.add(step)) {
            points.add(whole ? (Object) point.longValueExact() : (Object) point.doubleValue());
        }
        return Optional.of(List.copyOf(points));
    }

    /** A draw from a range without a step: uniform, in the logarithm on a log scale; whole numbers with integer. */
    static Object draw(SweepRequest.Parameter parameter, double uniform) {
        double min = parameter.min();
        double max = parameter.max();
        if (Boolean.TRUE.equals(parameter.integer())) {
            long low = (long) Math.ceil(min);
            long high = (long) Math.floor(max);
            double span = parameter.logScale() ? Math.exp(Math.log(low) + uniform * (Math.log(high + 1.0) - Math.log(low)))
                    : low + uniform * (high - low + 1.0);
            return Math.max(low, Math.min(high, (long) Math.floor(span)));
        }
        double value = parameter.logScale() ? Math.exp(Math.log(min) + uniform * (Math.log(max) - Math.log(min)))
                : min + uniform * (max - min);
        return new BigDecimal(value).round(DRAWN).doubleValue();
    }

    /** A value as text: numbers without exponent or trailing zeros ({@code 0.001}, {@code 16}), strings as they are. */
    static String text(Object value) {
        if (value instanceof Double d) {
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }
        return String.valueOf(value);
    }

    /** Integers as {@code Long}, other numbers as {@code Double}: one form per value, so two spellings compare equal. */
    private static Object normal(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof java.math.BigInteger big) {
            return big.bitLength() < 64 ? (Object) big.longValue() : (Object) big.doubleValue();
        }
        if (value instanceof Number number && !(value instanceof Long)) {
            return number.doubleValue();
        }
        return value;
    }

    private static boolean isWhole(BigDecimal number) {
        return number.stripTrailingZeros().scale() <= 0 && number.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0;
    }
}
