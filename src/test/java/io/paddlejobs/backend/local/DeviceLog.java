package io.paddlejobs.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One file that replicas append to when they start and when they end, naming the GPUs they were
 * given ({@code start <job>/<trainer>/<attempt> 0,1}). Each line is one short write in append mode,
 * so lines land whole and in the order they were written: the file is the order of events, and
 * from it alone one can tell whether two running replicas ever held one device.
 */
final class DeviceLog {

    final Path file;

    DeviceLog(Path file) {
        this.file = file;
    }

    /**
     * Shell lines for a trainer's entry point: it names itself, says on SIGTERM that it ends (the trap is
     * set before it says it started, so a replica stopped at once leaves no start without an end), then
     * says it started.
     */
    String begin() {
        return "W=$PADDLE_JOB_NAME/$PADDLE_TRAINER_ID/$PADDLE_JOB_RESTART_COUNT; "
                + "trap '" + event("exit") + "; exit 143' TERM; " + event("start") + "; ";
    }

    /** A shell command that appends this event with the replica's name ({@code $W}) and devices. */
    String event(String what) {
        return "echo \"" + what + " $W $CUDA_VISIBLE_DEVICES\" >> " + file;
    }

    List<String> lines() throws IOException {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    /** Every time a replica started on a device another running replica held, in words; empty when none did. */
    List<String> sharedDevices() throws IOException {
        List<String> violations = new ArrayList<>();
        Map<String, String> holders = new HashMap<>();
        for (String line : lines()) {
            String[] parts = line.split(" ", 3);
            if (parts.length < 3 || parts[2].isBlank()) {
                continue; // no devices
            }
            for (String device : parts[2].split(",")) {
                if (parts[0].equals("start")) {
                    String holder = holders.putIfAbsent(device, parts[1]);
                    if (holder != null && !holder.equals(parts[1])) {
                        violations.add("GPU %s: %s started while %s held it".formatted(device, parts[1], holder));
                    }
                } else {
                    holders.remove(device, parts[1]);
                }
            }
        }
        return violations;
    }
}
