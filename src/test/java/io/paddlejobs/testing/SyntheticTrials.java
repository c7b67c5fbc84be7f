package io.paddlejobs.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Trials whose objective is known in advance, for tests of sweeps: a plain Python trainer whose loss at
 * step s is {@code quality + 1 / (s + 1)} (its parameter sets quality), which can hold before a step until
 * the test releases it (see {@code sweeps/synthetic_trainer.py}).
 */
public final class SyntheticTrials {

    private final Path dir;
    private final Path script;

    private SyntheticTrials(Path dir, Path script) {
        this.dir = dir;
        this.script = script;
    }

    /** The trainer, written into {@code dir}, with {@code dir/release} for the files that release held trials. */
    public static SyntheticTrials in(Path dir) {
        try (InputStream source = SyntheticTrials.class.getResourceAsStream("/sweeps/synthetic_trainer.py")) {
            Files.createDirectories(dir.resolve("release"));
            Path script = dir.resolve("synthetic_trainer.py");
            Files.write(script, source.readAllBytes());
            return new SyntheticTrials(dir, script);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The entry point that runs the trainer. */
    public String entryPoint() {
        return "python3 -u " + script;
    }

    public Path releaseDir() {
        return dir.resolve("release");
    }

    /** Lets the trial's trainer, held before a step, go on. */
    public void release(String job) {
        try {
            Files.writeString(releaseDir().resolve(job), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
