package io.paddlejobs.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Markdown page links to, which anchors its headings make and what its text sets in code,
 * read the way GitHub renders it (CommonMark with GitHub's heading ids): enough for a link check,
 * not a Markdown parser.
 */
record MarkdownPage(Path file, List<Link> links, Set<String> anchors, List<Code> code) {

    /** A code span in the text (not in a fenced block), without its backticks, with its line. */
    record Code(int line, String text) {
    }

    /** A link or image target as written, with the line it is on. */
    record Link(int line, String target) {
        boolean external() {
            return SCHEME.matcher(target).lookingAt();
        }

        String path() {
            int hash = target.indexOf('#');
            return hash < 0 ? target : target.substring(0, hash);
        }

        String anchor() {
            int hash = target.indexOf('#');
            return hash < 0 ? null : target.substring(hash + 1);
        }
    }

    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
    // [text](target) and ![alt](target), with an optional "title"; the text may hold code spans.
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern NOT_IN_ID = Pattern.compile("[^\\p{L}\\p{M}\\p{N}_\\- ]");

    static MarkdownPage read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Link> links = new ArrayList<>();
        List<Code> code = new ArrayList<>();
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String id = headingId(heading.group(1));
                int count = seen.merge(id, 1, Integer::sum);
                anchors.add(count == 1 ? id : id + "-" + (count - 1));
            }
            Matcher span = CODE_SPAN.matcher(line);
            while (span.find()) {
                String ticks = span.group(1);
                code.add(new Code(i + 1, span.group().substring(ticks.length(), span.group().length() - ticks.length()).strip()));
            }
            // A link written inside a code span is text, not a link.
            Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (link.find()) {
                links.add(new Link(i + 1, link.group(1)));
            }
        }
        return new MarkdownPage(file, List.copyOf(links), Set.copyOf(anchors), List.copyOf(code));
    }

    /** GitHub's id for a heading: its text without markup, lower case, punctuation dropped, spaces as hyphens. */
    static String headingId(String text) {
        String plain = text.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "");
        return NOT_IN_ID.matcher(plain.toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }
}
