package io.paddlejobs.job;

import io.paddlejobs.planning.Role;
import java.time.Instant;
import java.util.List;

/**
 * The Python stacks of a job's running trainers, taken at one moment: where each rank is, to compare them (a hung
 * collective shows one rank in it and another elsewhere).
 *
 * @param attempt  the attempt they were taken in ({@link Attempt#number()})
 * @param trigger  why they were taken: {@value #REQUESTED} (a user asked) or {@value #STALL} (a stall was seen; taken
 *                 before the restart or the failure it led to)
 * @param replicas one per trainer that ran then, in plan order
 */
public record StackDump(int attempt, Instant takenAt, String trigger, List<ReplicaStacks> replicas) {

    public static final String REQUESTED = "requested";
    public static final String STALL = "stall";

    public StackDump {
        replicas = List.copyOf(replicas);
    }

    /**
     * One replica's Python processes (a launcher and its workers are several).
     *
     * @param pid          its entry point's process on the host, where known (as in its status)
     * @param namespacePid the same inside its PID namespace, where it runs in one
     * @param error        why none could be dumped, when none could
     */
    public record ReplicaStacks(String replica, Role role, int index, Long pid, Long namespacePid,
                                List<ProcessStacks> processes, String error) {

        public ReplicaStacks {
            processes = List.copyOf(processes);
        }
    }

    /**
     * @param pid          the process on the host
     * @param namespacePid the same inside the replica's PID namespace ({@code os.getpid()} there), where it runs in one
     * @param command      its command line
     * @param note         what is missing from its stacks and why (native frames that could not be read, or why it
     *                     could not be dumped at all)
     */
    public record ProcessStacks(long pid, Long namespacePid, String command, List<ThreadStack> threads, String note) {

        public ProcessStacks {
            threads = List.copyOf(threads);
        }
    }

    /**
     * @param active  whether it was running (not idle in a wait) when dumped
     * @param frames  innermost first
     */
    public record ThreadStack(String name, Long osThreadId, boolean active, boolean ownsGil, List<Frame> frames) {

        public ThreadStack {
            frames = List.copyOf(frames);
        }
    }

    /** One call: the function, its file and line (native frames: the library, and no line). */
    public record Frame(String function, String file, Integer line) {
    }
}
