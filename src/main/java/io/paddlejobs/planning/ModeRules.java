package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a job's mode: a collective job has trainers only, so every pserver field is an
 * error (it would be silently ignored otherwise, and the user would not get the job they meant).
 */
final class ModeRules {

    private ModeRules() {
    }

    static List<Violation> check(JobRequest r) {
        if (r.topology().modeOrDefault() != JobMode.COLLECTIVE) {
            return List.of();
        }
        List<Violation> violations = new ArrayList<>();
        reject(violations, "pservers", r.topology().pservers());
        reject(violations, "pserver_cpu", r.compute().pserverCpu());
        reject(violations, "pserver_mem", r.compute().pserverMem() == null ? null : r.compute().pserverMem().toString());
        reject(violations, "pserver_entry_point", r.code().pserverEntryPoint());
        reject(violations, "pserver_image", r.code().pserverImage());
        reject(violations, "pserver_env", r.code().pserverEnv().isEmpty() ? null : r.code().pserverEnv().keySet());
        return violations;
    }

    /** How the mode was chosen, first among the plan's derivations. */
    static Derivation derivation(JobRequest r) {
        return switch (r.topology().modeOrDefault()) {
            case PS -> new Derivation("mode", "ps", r.topology().mode() == null
                    ? "default: a parameter-server job (pservers and trainers)" : "given: pservers and trainers");
            case COLLECTIVE -> new Derivation("mode", "collective",
                    "given: trainers only, which all-reduce their gradients; no pservers");
        };
    }

    private static void reject(List<Violation> violations, String field, Object value) {
        if (value != null) {
            violations.add(Violation.of(field, value,
                    "a collective job (mode collective) has no pservers; remove " + field + " or use mode ps"));
        }
    }
}
