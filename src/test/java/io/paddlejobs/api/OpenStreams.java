package io.paddlejobs.api;

import static org.awaitility.Awaitility.await;

import io.paddlejobs.bench.Figures;
import io.paddlejobs.bench.HeapHistogram;
import io.paddlejobs.testing.ServiceProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a service in another JVM pays for open event streams: its live heap (a class histogram after
 * a full collection) with the streams open, less before them; the classes that grew most, per stream;
 * and, once the clients went and the service noticed, what it still holds.
 */
final class OpenStreams {

    // 20 MiB was the first target; Tomcat alone holds more per open request (docs/development/performance.md).
    private static final String TARGET = "<= 60 MiB; 20 MiB is below Tomcat's floor";
    private static final int WARM_UP = 50;
    private static final int HOLDERS = 12;
    // A stream notices its client went at its next write: the keep-alive comment, every 15 s.
    private static final Duration NOTICED_DEADLINE = Duration.ofSeconds(60);

    private OpenStreams() {
    }

    /** Opens one stream per path, each read until a line starting {@code firstLine}. */
    static void measure(ServiceProcess service, Figures figures, String what, List<String> paths, String firstLine)
            throws Exception {
        // Classes loaded and pools filled by the first streams are not what a stream costs.
        closeAll(open(service, paths.subList(0, WARM_UP), firstLine));
        awaitNoStreamObjects(service);
        HeapHistogram none = HeapHistogram.of(service.pid());
        List<EventStreamSocket> streams = open(service, paths, firstLine);
        try {
            HeapHistogram open = HeapHistogram.of(service.pid());
            int count = streams.size();
            figures.value(count + " open " + what + ": the service's heap", mib(open.totalBytes() - none.totalBytes()),
                    "MiB", TARGET);
            figures.value("  per stream", (open.totalBytes() - none.totalBytes()) / 1024.0 / Math.max(1, count), "KiB",
                    "<= 60 KiB");
            figures.count("  " + what + " that ended before their first event", paths.size() - count, "0");
            figures.heldBy(none, open, HOLDERS, Math.max(1, count), "stream");
        } finally {
            closeAll(streams);
        }
        awaitNoStreamObjects(service);
        HeapHistogram closed = HeapHistogram.of(service.pid());
        figures.value("  still held once every client went and its stream ended", mib(closed.totalBytes() - none.totalBytes()),
                "MiB", "pools only");
    }

    private static List<EventStreamSocket> open(ServiceProcess service, List<String> paths, String firstLine)
            throws IOException {
        List<EventStreamSocket> streams = new ArrayList<>();
        for (String path : paths) {
            EventStreamSocket stream = EventStreamSocket.open(service.port(), path);
            try {
                stream.awaitLine(firstLine);
                streams.add(stream);
            } catch (IOException e) {
                stream.close(); // counted, not hidden: see the figure
            }
        }
        return streams;
    }

    private static void closeAll(List<EventStreamSocket> streams) throws IOException {
        for (EventStreamSocket stream : streams) {
            stream.close();
        }
    }

    /** Until the service holds no stream of ours: each noticed its client went, and let go. */
    private static void awaitNoStreamObjects(ServiceProcess service) {
        await().atMost(NOTICED_DEADLINE).pollInterval(Duration.ofSeconds(2)).until(() -> {
            HeapHistogram now = HeapHistogram.of(service.pid());
            return now.instancesOf("io.paddlejobs.api.stream.StatusStream") + now.instancesOf("io.paddlejobs.api.stream.NamespaceStream") == 0;
        });
    }

    private static double mib(long bytes) {
        return bytes / 1024.0 / 1024.0;
    }
}
