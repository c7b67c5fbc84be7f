package io.paddlejobs.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * PaddleJob manifests of Kubeflow's training-operator, kept as test resources ({@code io/paddlejobs/api/kubeflow/}):
 * its collective example and a parameter-server job as teams write them.
 */
public final class KubeflowExamples {

    private KubeflowExamples() {
    }

    /** The manifest {@code name} ({@code collective.yaml}, {@code ps.yaml}) as it is. */
    public static String read(String name) {
        try (InputStream in = KubeflowExamples.class.getResourceAsStream("/io/paddlejobs/api/kubeflow/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no Kubeflow example " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The manifest with {@code lines} (YAML, indented for where they go) put after each line that is
     * {@code line}, indentation included: what a team adds to an example.
     */
    public static String inserting(String manifest, String line, String lines) {
        String anchor = "\n" + line + "\n";
        if (!manifest.contains(anchor)) {
            throw new IllegalArgumentException("no line '" + line + "' in the manifest");
        }
        return manifest.replace(anchor, anchor + lines);
    }
}
