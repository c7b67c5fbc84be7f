package io.paddlejobs.backend.local.process;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A replica's whole environment: a short list of the service's own variables that programs need to
 * run at all (where commands are, language, time zone, home), then what the plan injects and the
 * user asked for, with Python's output unbuffered unless the user says otherwise. Nothing else of the service's environment reaches a job: not its credentials, not
 * its proxy settings, not its {@code PADDLE_*} settings (which mean other things in other Paddle
 * generations).
 */
public final class ReplicaEnvironment {

    public static final Set<String> INHERITED = Set.of("PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ",
            "TMPDIR", "TERM");

    private final Set<String> inherited;

    public ReplicaEnvironment(List<String> alsoInherited) {
        Set<String> names = new HashSet<>(INHERITED);
        names.addAll(alsoInherited);
        this.inherited = Set.copyOf(names);
    }

    /**
     * @param service the service's own environment
     * @param planned the plan's variables for this replica (injected and the user's)
     * @param home    where HOME points inside a sandbox, or {@code null} to keep the service's
     */
    public Map<String, String> of(Map<String, String> service, Map<String, String> planned, String home) {
        Map<String, String> env = new HashMap<>();
        service.forEach((name, value) -> {
            if (inherited.contains(name) || name.startsWith("LC_")) {
                env.put(name, value);
            }
        });
        if (home != null) {
            env.put("HOME", home);
        }
        env.putAll(planned);
        // Python buffers a pipe's output by 8 KiB: its prints would reach the log (which people read,
        // and metrics and the stall watch follow) long after they happen, or only at exit.
        env.putIfAbsent("PYTHONUNBUFFERED", "1");
        return env;
    }
}
