package io.paddlejobs.backend;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Role;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * TensorBoard and VisualDL scalars as metrics, with no change to the program (docs/metrics.md). A trainer of
 * a job whose {@code env} names {@code PADDLE_JOB_TENSORBOARD_DIR} runs its entry point under a small reader,
 * {@code tensorboard_scalars.py} (Python's standard library only, so nothing is installed into the job's
 * environment), which turns the scalars of the event files written under that directory into
 * {@code PADDLEJOBS_METRICS} lines on the trainer's own output: every backend reads those already. The
 * reader ends with the program, exits as it did, and reads once more after it (writers flush on close), so
 * the last scalars are in the log before the replica counts as ended.
 */
public final class TensorBoardScalars {

    private static final String READER = ShellScripts.resource(TensorBoardScalars.class, "tensorboard_scalars.py");
    /** A word of the entry point that names a Python interpreter: the reader runs with the program's own. */
    private static final Pattern PYTHON = Pattern.compile("(?:.*/)?python[0-9.]*");

    private TensorBoardScalars() {
    }

    /** Whether a replica runs under the reader: a trainer (pservers report no metrics) whose job names the directory. */
    public static boolean reads(JobPlan plan, Role role) {
        String dir = plan.spec().code().envOf(Role.TRAINER).get(PaddleEnv.TENSORBOARD_DIR);
        return role == Role.TRAINER && dir != null && !dir.isBlank();
    }

    /** The shell command a replica of {@code role} runs: its entry point, under the reader where it reads. */
    public static String command(JobPlan plan, Role role) {
        String entryPoint = plan.role(role).entryPoint();
        return reads(plan, role) ? underReader(entryPoint) : entryPoint;
    }

    /**
     * The entry point under the reader, started with the first Python there is: the entry point's own
     * interpreter, {@code python3}, {@code python}. {@code -I} keeps the job's {@code PYTHONPATH} and the like
     * from changing the reader; the program's environment is its own. Without any Python the entry point runs
     * as it is, and its log says why no scalars come.
     */
    static String underReader(String entryPoint) {
        Set<String> pythons = new LinkedHashSet<>();
        for (String word : entryPoint.split("\\s+")) {
            if (PYTHON.matcher(word).matches()) {
                pythons.add(word);
                break;
            }
        }
        pythons.add("python3");
        pythons.add("python");
        StringBuilder command = new StringBuilder("for python in");
        pythons.forEach(python -> command.append(' ').append(ShellScripts.quote(python)));
        return command.append("; do\n")
                .append("    command -v \"$python\" >/dev/null 2>&1 && exec \"$python\" -I -c ").append(ShellScripts.quote(READER))
                .append(' ').append(ShellScripts.quote(entryPoint)).append('\n')
                .append("done\n")
                .append("echo 'paddle-jobs: no python3 or python here, so TensorBoard scalars are not read' >&2\n")
                .append("exec sh -c ").append(ShellScripts.quote(entryPoint)).append('\n')
                .toString();
    }
}
