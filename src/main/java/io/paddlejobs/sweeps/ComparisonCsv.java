package io.paddlejobs.sweeps;

import java.util.ArrayList;
import java.util.List;

/**
 * A comparison's table as CSV (RFC 4180): a row per run, its phase and reason, its parameters, then per
 * metric its last value and step, lowest, highest and (for the objective's metric) best. Text that a
 * spreadsheet would take for a formula is written with a leading apostrophe.
 */
final class ComparisonCsv {

    private ComparisonCsv() {
    }

    static String of(Comparison comparison) {
        List<String> header = new ArrayList<>(List.of("run", "phase", "reason"));
        header.addAll(comparison.parameters());
        for (String metric : comparison.metrics()) {
            header.addAll(List.of(metric + " last", metric + " last step", metric + " min", metric + " max"));
            if (comparison.objective() != null && comparison.objective().metric().equals(metric)) {
                header.add(metric + " best");
            }
        }
        StringBuilder csv = new StringBuilder();
        line(csv, header);
        for (Comparison.Run run : comparison.runs()) {
            List<String> cells = new ArrayList<>(List.of(run.name(), run.phase().wireName(), text(run.reason())));
            comparison.parameters().forEach(parameter -> cells.add(value(run.parameters().get(parameter))));
            for (String metric : comparison.metrics()) {
                Comparison.Summary summary = run.metrics().get(metric);
                boolean objective = comparison.objective() != null && comparison.objective().metric().equals(metric);
                if (summary == null) {
                    cells.addAll(objective ? List.of("", "", "", "", "") : List.of("", "", "", ""));
                    continue;
                }
                cells.addAll(List.of(value(summary.last()), String.valueOf(summary.lastStep()), value(summary.min()),
                        value(summary.max())));
                if (objective) {
                    cells.add(value(summary.best()));
                }
            }
            line(csv, cells);
        }
        return csv.toString();
    }

    private static String value(Object value) {
        return value == null ? "" : ParameterValues.text(value);
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    private static void line(StringBuilder csv, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            csv.append(i == 0 ? "" : ",").append(cell(cells.get(i)));
        }
        csv.append("\r\n");
    }

    private static String cell(String value) {
        String safe = !value.isEmpty() && "=+-@\t\r".indexOf(value.charAt(0)) >= 0 && !isNumber(value) ? "'" + value : value;
        return safe.matches("[^\",\r\n]*") ? safe : "\"" + safe.replace("\"", "\"\"") + "\"";
    }

    private static boolean isNumber(String value) {
        try {
            Double.parseDouble(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
