package io.paddlejobs.api.stream;

import io.paddlejobs.job.ExecProcess;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * How a command run in a held replica answers: one JSON object per line, {@code {"output": "..."}} with what it
 * printed as it comes (each read sent at once), then {@code {"exit_code": N}}. Lines of JSON, not plain text with
 * a last line of its own: output that does not end in a newline, or that looks like such a line, cannot be taken
 * for the exit code.
 */
final class ExecOutput {

    static final MediaType TYPE = MediaType.parseMediaType("application/x-ndjson");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int CHUNK = 8192;

    private ExecOutput() {
    }

    /** Copies the command's output until it ends, then its exit code; returns once both are written. */
    static void copy(ExecProcess process, OutputStream out) throws IOException {
        char[] buffer = new char[CHUNK];
        try (Reader output = new InputStreamReader(process.output(), StandardCharsets.UTF_8)) {
            for (int read = output.read(buffer); read >= 0; read = output.read(buffer)) {
                if (read > 0) {
                    line(out, Map.of("output", new String(buffer, 0, read)));
                }
            }
        }
        try {
            line(out, Map.of("exit_code", process.exit().get()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the command ended", e);
        } catch (ExecutionException e) {
            throw new IOException("the command's end could not be read", e.getCause());
        }
    }

    private static void line(OutputStream out, Map<String, Object> value) throws IOException {
        out.write(JSON.writeValueAsBytes(value));
        out.write('\n');
        out.flush();
    }
}
