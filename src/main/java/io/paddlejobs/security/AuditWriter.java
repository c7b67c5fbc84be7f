package io.paddlejobs.security;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes audit lines on one background thread, so that a request does not wait on the log's
 * appenders. The queue is bounded: when it is full, or once the writer is closed, a line is written
 * on the caller's thread instead, so none is dropped. Closing writes what is queued before it returns.
 */
final class AuditWriter implements AutoCloseable {

    static final int CAPACITY = 4096;
    private static final Logger log = LoggerFactory.getLogger("paddlejobs.audit");
    private static final String STOP = new String("stop"); // compared by identity: no line is it

    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread thread;
    private volatile boolean closed;

    AuditWriter() {
        thread = new Thread(this::run, "audit-writer");
        thread.setDaemon(true);
        thread.start();
    }

    void write(String line) {
        if (closed || !lines.offer(line)) {
            log.info("{}", line);
        }
    }

    private void run() {
        List<String> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(lines.take());
                lines.drainTo(batch);
                boolean stop = false;
                for (String line : batch) {
                    if (line == STOP) {
                        stop = true;
                    } else {
                        log.info("{}", line);
                    }
                }
                if (stop) {
                    return;
                }
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        lines.put(STOP);
        thread.join(TimeUnit.SECONDS.toMillis(10));
        // Lines queued while closing, behind the stop or after it, are written here.
        List<String> rest = new ArrayList<>();
        lines.drainTo(rest);
        rest.stream().filter(line -> line != STOP).forEach(line -> log.info("{}", line));
    }
}
