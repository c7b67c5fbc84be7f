package io.paddlejobs.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The repository's Markdown pages, and what is wrong with the links between them. */
final class Documentation {

    // A code span that starts with a setting's name: `key`, `--key=value`, `key.*`, `key.<user>`.
    private static final Pattern SETTING = Pattern.compile("(?:--)?(paddlejobs(?:\\.[a-z0-9-]+)+)(?:=.*|\\.[^a-z0-9].*)?");
    private static final Set<String> NOT_SOURCES = Set.of("target", "node_modules", "data");

    private final Path root;
    private final Map<Path, MarkdownPage> pages = new TreeMap<>();

    private Documentation(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** Every {@code *.md} under the root; build output, the service's data and hidden folders (.git) left out. */
    static Documentation under(Path root) {
        Documentation docs = new Documentation(root);
        try {
            Files.walkFileTree(docs.root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    String name = dir.getFileName().toString();
                    boolean skipped = !dir.equals(docs.root) && (name.startsWith(".") || NOT_SOURCES.contains(name));
                    return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    if (attributes.isRegularFile() && file.getFileName().toString().endsWith(".md")) {
                        docs.pages.put(file, MarkdownPage.read(file));
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    Set<Path> pages() {
        return pages.keySet();
    }

    /** Each relative link whose file is missing or outside the repository, as {@code page:line: target (why)}. */
    List<String> brokenLinks() {
        List<String> broken = new ArrayList<>();
        pages.values().forEach(page -> page.links().stream().filter(link -> !link.external()).forEach(link -> {
            Path target = resolve(page, link);
            if (!target.startsWith(root)) {
                broken.add(where(page, link) + " (outside the repository)");
            } else if (!Files.exists(target)) {
                broken.add(where(page, link) + " (no such file)");
            }
        }));
        return broken;
    }

    /** Each {@code #anchor} into a Markdown page that none of that page's headings makes. */
    List<String> brokenAnchors() {
        List<String> broken = new ArrayList<>();
        pages.values().forEach(page -> page.links().stream()
                .filter(link -> !link.external() && link.anchor() != null)
                .forEach(link -> {
                    MarkdownPage target = pages.get(resolve(page, link));
                    if (target != null && !target.anchors().contains(link.anchor())) {
                        broken.add(where(page, link) + " (no such heading in " + root.relativize(target.file()) + ")");
                    }
                }));
        return broken;
    }

    /**
     * Each setting a page names in code ({@code `paddlejobs.local.gpus`}, {@code `--paddlejobs.backend=slurm`})
     * that is neither a key nor a group of keys of the reference page, as {@code page:line: key}.
     */
    List<String> settingsMissingFrom(Path reference, Set<String> notSettings) {
        MarkdownPage keys = pages.get(root.resolve(reference));
        Set<String> known = new HashSet<>();
        keys.code().forEach(code -> {
            Matcher key = SETTING.matcher(code.text());
            if (key.matches()) {
                known.add(key.group(1));
            }
        });
        List<String> missing = new ArrayList<>();
        pages.values().stream().filter(page -> page != keys).forEach(page -> page.code().forEach(code -> {
            Matcher key = SETTING.matcher(code.text());
            if (key.matches() && !notSettings.contains(key.group(1)) && !isKeyOrGroup(key.group(1), known)) {
                missing.add(root.relativize(page.file()) + ":" + code.line() + ": " + key.group(1));
            }
        }));
        return missing;
    }

    private static boolean isKeyOrGroup(String name, Set<String> keys) {
        return keys.contains(name) || keys.stream().anyMatch(key -> key.startsWith(name + "."));
    }

    /** The pages no chain of links from {@code start} reaches. */
    Set<Path> unreachableFrom(Path start) {
        Set<Path> reached = new HashSet<>();
        Deque<Path> next = new ArrayDeque<>(List.of(root.resolve(start)));
        while (!next.isEmpty()) {
            MarkdownPage page = pages.get(next.pop());
            if (page != null && reached.add(page.file())) {
                page.links().stream().filter(link -> !link.external()).map(link -> resolve(page, link))
                        // A link to a folder shows its README, as GitHub renders it.
                        .map(target -> Files.isDirectory(target) ? target.resolve("README.md") : target)
                        .forEach(next::push);
            }
        }
        Set<Path> unreached = new TreeSet<>();
        pages.keySet().stream().filter(page -> !reached.contains(page)).map(root::relativize).forEach(unreached::add);
        return unreached;
    }

    private Path resolve(MarkdownPage page, MarkdownPage.Link link) {
        String path = link.path();
        if (path.isEmpty()) {
            return page.file();
        }
        Path base = path.startsWith("/") ? root : page.file().getParent();
        return base.resolve(path.startsWith("/") ? path.substring(1) : path).normalize();
    }

    private String where(MarkdownPage page, MarkdownPage.Link link) {
        return root.relativize(page.file()) + ":" + link.line() + ": " + link.target();
    }
}
