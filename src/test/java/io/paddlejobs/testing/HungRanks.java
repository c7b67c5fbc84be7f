package io.paddlejobs.testing;

/**
 * A two-trainer Python program that hangs as the ranks of a hung collective do, each somewhere else: trainer 0
 * listens on its master port (the gate the other trainers wait for), then waits for its peer in
 * {@code wait_for_peer}; trainer 1 waits in {@code accept_from_peer} for a connection nobody makes. Each prints a
 * line from inside the function it then blocks in ({@code waiting}, {@code accepting}), so a stack dump taken once
 * it has finds it there. Plain Python, no Paddle: it starts at once.
 */
public final class HungRanks {

    /** The program's source: no single quote in it, so that {@code python3 -c '...'} can carry it. */
    public static final String PROGRAM = """
            import os, socket, threading
            def wait_for_peer():
                print("waiting", flush=True); threading.Event().wait()
            def accept_from_peer():
                s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print("accepting", flush=True); s.accept()
            if os.environ["PADDLE_TRAINER_ID"] == "0":
                m = socket.socket(); m.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                m.bind(("", int(os.environ["MASTER_PORT"]))); m.listen()
                wait_for_peer()
            else:
                accept_from_peer()
            """;

    private HungRanks() {
    }

    /** An entry point that runs it, with nothing but the command line: for replicas that see no file of the test's. */
    public static String entryPoint() {
        return "python3 -c '" + PROGRAM + "'";
    }
}
