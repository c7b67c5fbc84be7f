package io.paddlejobs.backend;

import io.paddlejobs.job.StackDump;
import io.paddlejobs.job.StacksUnavailableException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * py-spy, the tool Python users know for a live program's stacks: {@code py-spy dump --pid PID --json}, with
 * {@code --native} for the C/C++ frames below Python's where py-spy can read them (where it cannot, the dump is
 * taken again without them and says so). It pauses the process for the moment of the dump.
 */
public final class PySpy {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** What is kept of what py-spy says on failure: its first lines are the reason, the rest a backtrace. */
    private static final int ERROR_CHARS = 300;

    private final StackProperties settings;

    public PySpy(StackProperties settings) {
        this.settings = settings;
    }

    /**
     * The program, as the setting names it.
     *
     * @throws StacksUnavailableException (503) naming the setting when it is not there
     */
    public Path program() {
        String named = settings.pySpy();
        Path found = named.contains("/") ? Path.of(named) : onPath(named);
        if (found == null || !Files.isExecutable(found)) {
            throw StacksUnavailableException.toolMissing(("py-spy was not found (paddlejobs.stacks.py-spy=%s, looked "
                    + "for %s); the operator installs it (pip install py-spy) and sets paddlejobs.stacks.py-spy to its "
                    + "path").formatted(named, named.contains("/") ? "at that path" : "on the service's PATH"));
        }
        return found;
    }

    /**
     * Dumps one process's threads. A dump that fails is no error of the caller's: its note says why (the process
     * ended meanwhile, or may not be traced).
     */
    public StackDump.ProcessStacks dump(Path program, long pid, Long namespacePid, String command) {
        return dump(List.of(program.toString()), pid, namespacePid, command);
    }

    /**
     * As {@link #dump(Path, long, Long, String)}, with py-spy run by {@code pySpy}: its program, or a command that
     * runs it elsewhere (on a Slurm node, {@code srun ... py-spy}), to which its arguments are added.
     */
    public StackDump.ProcessStacks dump(List<String> pySpy, long pid, Long namespacePid, String command) {
        Run withNative = run(pySpy, pid, true);
        if (withNative.ok()) {
            return new StackDump.ProcessStacks(pid, namespacePid, command, withNative.threads(), null);
        }
        Run plain = run(pySpy, pid, false);
        return plain.ok()
                ? new StackDump.ProcessStacks(pid, namespacePid, command, plain.threads(),
                "no native frames: py-spy --native failed (" + withNative.error() + ")")
                : new StackDump.ProcessStacks(pid, namespacePid, command, List.of(), "py-spy failed: " + plain.error());
    }

    private record Run(List<StackDump.ThreadStack> threads, String error) {

        boolean ok() {
            return error == null;
        }
    }

    private Run run(List<String> pySpy, long pid, boolean nativeFrames) {
        List<String> command = new ArrayList<>(pySpy);
        command.addAll(List.of("dump", "--pid", Long.toString(pid), "--json"));
        if (nativeFrames) {
            command.add("--native");
        }
        Process process;
        try {
            process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            return new Run(List.of(), "could not run " + pySpy.get(0) + ": " + e.getMessage());
        }
        // Both read aside, so that a py-spy that hangs is given up at the timeout, not waited on in a read.
        CompletableFuture<String> out = readAside(process.getInputStream());
        CompletableFuture<String> said = readAside(process.getErrorStream());
        try {
            if (!process.waitFor(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                return new Run(List.of(), "no dump within " + settings.timeout().toSeconds() + " s");
            }
            if (process.exitValue() != 0) {
                return new Run(List.of(), firstLines(said.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)));
            }
            return new Run(threads(JSON.readTree(out.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS))), null);
        } catch (JacksonException e) {
            return new Run(List.of(), "its output was no dump: " + e.getOriginalMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Run(List.of(), "interrupted");
        } catch (Exception e) {
            return new Run(List.of(), e.getMessage());
        } finally {
            process.destroyForcibly();
        }
    }

    /** py-spy's JSON: one object per thread, {@code frames} innermost first. */
    static List<StackDump.ThreadStack> threads(JsonNode dump) {
        List<StackDump.ThreadStack> threads = new ArrayList<>();
        for (JsonNode thread : dump) {
            List<StackDump.Frame> frames = new ArrayList<>();
            for (JsonNode frame : thread.path("frames")) {
                int line = frame.path("line").asInt(0);
                frames.add(new StackDump.Frame(frame.path("name").asString(""), frame.path("filename").asString(""),
                        line > 0 ? line : null));
            }
            JsonNode osId = thread.path("os_thread_id");
            threads.add(new StackDump.ThreadStack(thread.path("thread_name").asString("thread " + thread.path("thread_id")),
                    osId.isNumber() ? osId.asLong() : null, thread.path("active").asBoolean(false),
                    thread.path("owns_gil").asBoolean(false), frames));
        }
        return threads;
    }

    /** On a thread of its own: the common pool may have a single thread, and these reads block. */
    private static CompletableFuture<String> readAside(InputStream in) {
        CompletableFuture<String> read = new CompletableFuture<>();
        Thread reader = new Thread(() -> read.complete(readAll(in)), "py-spy-output");
        reader.setDaemon(true);
        reader.start();
        return read;
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** py-spy's reason, without the backtrace it adds ("Stack backtrace:"). */
    private static String firstLines(String said) {
        String reason = said.split("\n\\s*Stack backtrace:", 2)[0].strip().replaceAll("\\s+", " ");
        return reason.length() <= ERROR_CHARS ? reason : reason.substring(0, ERROR_CHARS) + "...";
    }

    private static Path onPath(String name) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        return Stream.of(path.split(":")).filter(dir -> !dir.isEmpty()).map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable).findFirst().orElse(null);
    }
}
