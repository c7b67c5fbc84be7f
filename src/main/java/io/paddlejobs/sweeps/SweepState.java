package io.paddlejobs.sweeps;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * What a sweep's driver keeps between its looks: each trial's state, and the sweep's reason and message
 * and the warnings it has come to (an objective no trial reports).
 *
 * @param notes what its submit warned of (kept as they were: the driver writes {@code warnings} only)
 */
record SweepState(List<TrialState> trials, String reason, String message, List<String> warnings, List<String> notes) {

    SweepState {
        trials = List.copyOf(trials);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    static SweepState planned(List<TrialState> trials, List<String> notes) {
        return new SweepState(trials, null, null, List.of(), notes);
    }

    SweepState withTrial(int index, UnaryOperator<TrialState> change) {
        List<TrialState> changed = new java.util.ArrayList<>(trials);
        changed.set(index, change.apply(trials.get(index)));
        return new SweepState(changed, reason, message, warnings, notes);
    }

    SweepState withWords(String newReason, String newMessage, List<String> newWarnings) {
        return new SweepState(trials, newReason, newMessage, newWarnings, notes);
    }

    long unfinished() {
        return trials.stream().filter(TrialState::unfinished).count();
    }
}
