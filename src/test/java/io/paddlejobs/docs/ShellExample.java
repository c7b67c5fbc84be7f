package io.paddlejobs.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A shell block of a Markdown page (a fence of {@code sh}, {@code bash}, {@code shell} or {@code console}),
 * with what the page says of it in a comment on one of the two lines above the fence:
 * <ul>
 *   <li>{@code <!-- example: skip: why -->}: it cannot run in a test (it starts a service, needs a cluster or a
 *       download), and why;</li>
 *   <li>{@code <!-- example: expect 404 urn:paddlejobs:problem:job-not-found -->}: the last request's answer, when it
 *       is not a 2xx, and the problem type it carries;</li>
 *   <li>{@code <!-- example: stream -->}: a request that stays open (a watch), cut after a few seconds.</li>
 * </ul>
 * Without a comment, every request in the block must answer 2xx and the block must exit 0.
 */
record ShellExample(Path page, int line, String script, String skip, Integer status, String problemType,
                    boolean stream) {

    private static final Pattern FENCE = Pattern.compile("^```(sh|bash|shell|console)\\s*$");
    private static final Pattern MARKER = Pattern.compile("<!-- example: (skip: (.+?)|expect (\\d{3})(?: (\\S+))?|stream) -->");

    static List<ShellExample> of(Path page) {
        List<String> lines;
        try {
            lines = Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<ShellExample> examples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!FENCE.matcher(lines.get(i)).matches()) {
                continue;
            }
            StringBuilder script = new StringBuilder();
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).startsWith("```")) {
                script.append(lines.get(end)).append('\n');
                end++;
            }
            Matcher marker = null;
            for (int above = Math.max(0, i - 2); above < i; above++) {
                Matcher m = MARKER.matcher(lines.get(above));
                if (m.find()) {
                    marker = m;
                }
            }
            examples.add(new ShellExample(page, i + 1, script.toString(),
                    marker == null ? null : marker.group(2),
                    marker == null || marker.group(3) == null ? null : Integer.valueOf(marker.group(3)),
                    marker == null ? null : marker.group(4),
                    marker != null && "stream".equals(marker.group(1))));
            i = end;
        }
        return examples;
    }

    @Override
    public String toString() {
        return page.getFileName() + ":" + line;
    }
}
