package io.paddlejobs.backend;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** What the backends need to write the shell scripts their replicas run: quoted words, scripts shipped in the jar. */
public final class ShellScripts {

    private ShellScripts() {
    }

    /** {@code text} as one shell word, whatever it holds: single-quoted, a quote inside written {@code '\''}. */
    public static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** A script shipped beside {@code owner} in the jar; a missing one is a build error, thrown at class load. */
    public static String resource(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            throw new UncheckedIOException(new IOException("missing resource " + name, e));
        }
    }
}
