package io.paddlejobs.testing;

/**
 * A two-trainer Python program for {@code debug_hold}: each rank writes {@code note.txt} ({@code written-by-<rank>})
 * in its working directory; trainer 0 then listens on its master port (the gate the other trainers wait for) and runs
 * on, while trainer 1 prints {@code failing} and exits 3. Plain Python, no Paddle: it starts at once.
 */
public final class FailingRank {

    /** The program's source: no single quote in it, so that {@code python3 -c '...'} can carry it. */
    public static final String PROGRAM = """
            import os, socket, sys, time
            rank = os.environ["PADDLE_TRAINER_ID"]
            open("note.txt", "w").write("written-by-" + rank + "\\n")
            if rank == "0":
                m = socket.socket(); m.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                m.bind(("", int(os.environ["MASTER_PORT"]))); m.listen()
                print("listening", flush=True); time.sleep(3600)
            print("failing", flush=True); sys.exit(3)
            """;

    private FailingRank() {
    }

    /** An entry point that runs it, with nothing but the command line: for replicas that see no file of the test's. */
    public static String entryPoint() {
        return "python3 -c '" + PROGRAM + "'";
    }
}
