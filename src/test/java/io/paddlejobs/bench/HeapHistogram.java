package io.paddlejobs.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Another JVM's live objects by class, as {@code jcmd <pid> GC.class_histogram} counts them after the
 * full collection it starts: what that process holds, with nothing of ours (the measuring JVM) in it.
 */
public record HeapHistogram(Map<String, Usage> classes, long totalBytes) {

    public record Usage(long instances, long bytes) {
    }

    /** One class's growth from one histogram to another. */
    public record Growth(String className, long instances, long bytes) {
    }

    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
    private static final Pattern TOTAL = Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+)");

    public static HeapHistogram of(long pid) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.class_histogram").redirectErrorStream(true).start();
        String text = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (jcmd.waitFor() != 0) {
            throw new IOException("jcmd " + pid + " GC.class_histogram failed: " + text);
        }
        return parse(text);
    }

    public static HeapHistogram parse(String text) {
        Map<String, Usage> classes = new HashMap<>();
        long total = -1;
        for (String line : text.split("\n")) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                classes.merge(row.group(3), new Usage(Long.parseLong(row.group(1)), Long.parseLong(row.group(2))),
                        (a, b) -> new Usage(a.instances() + b.instances(), a.bytes() + b.bytes()));
            }
            Matcher sum = TOTAL.matcher(line);
            if (sum.find()) {
                total = Long.parseLong(sum.group(2));
            }
        }
        if (total < 0) {
            throw new IllegalArgumentException("not a class histogram: " + text.lines().limit(5).toList());
        }
        return new HeapHistogram(Map.copyOf(classes), total);
    }

    public long instancesOf(String className) {
        Usage usage = classes.get(className);
        return usage == null ? 0 : usage.instances();
    }

    /** The classes that grew most in bytes since {@code before}, largest first. */
    public List<Growth> largestGrowthSince(HeapHistogram before, int limit) {
        return classes.entrySet().stream().map(e -> {
            Usage was = before.classes().getOrDefault(e.getKey(), new Usage(0, 0));
            return new Growth(e.getKey(), e.getValue().instances() - was.instances(), e.getValue().bytes() - was.bytes());
        }).sorted(Comparator.comparingLong(Growth::bytes).reversed()).limit(limit).toList();
    }
}
