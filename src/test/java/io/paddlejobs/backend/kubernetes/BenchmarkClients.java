package io.paddlejobs.backend.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** The benchmarks' concurrent clients and their stopwatch. */
final class BenchmarkClients {

    private BenchmarkClients() {
    }

    /** One piece of one client's work: the client's number and the piece's. */
    interface Work {
        void run(int client, int i) throws Exception;
    }

    interface Timed {
        void run() throws Exception;
    }

    /** How long {@code clients} clients take to do {@code each} pieces of work apiece, in seconds. */
    static double seconds(int clients, int each, Work work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            long start = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                running.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        work.run(client, i);
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get();
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            pool.shutdown();
        }
    }

    /** How long {@code what} takes, in nanoseconds. */
    static long timed(Timed what) throws Exception {
        long start = System.nanoTime();
        what.run();
        return System.nanoTime() - start;
    }
}
