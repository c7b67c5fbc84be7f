package io.paddlejobs.backend.local.schedule;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPUs the driver lists: {@code nvidia-smi --query-gpu=index,uuid,name,memory.total
 * --format=csv,noheader,nounits}, one line per GPU ({@code 0, GPU-5f1c..., NVIDIA H100 80GB HBM3, 81559}).
 * No {@code nvidia-smi}, one that fails or one that hangs: no GPUs, and the log says why.
 */
public final class NvidiaSmi {

    public static final List<String> QUERY = List.of("--query-gpu=index,uuid,name,memory.total",
            "--format=csv,noheader,nounits");
    private static final Logger log = LoggerFactory.getLogger(NvidiaSmi.class);
    private static final long TIMEOUT_SECONDS = 15;

    private NvidiaSmi() {
    }

    public static List<GpuDevice> list(String command) {
        List<String> argv = new ArrayList<>(List.of(command));
        argv.addAll(QUERY);
        try {
            Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                log.warn("{} did not answer within {} s: no GPUs are handed out", command, TIMEOUT_SECONDS);
                return List.of();
            }
            if (process.exitValue() != 0) {
                log.warn("{} failed (exit {}): {}; no GPUs are handed out", command, process.exitValue(), output.strip());
                return List.of();
            }
            return parse(output);
        } catch (IOException e) {
            log.debug("no {} here ({}): no GPUs", command, e.getMessage());
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (IllegalArgumentException e) {
            log.warn("{} printed what this service cannot read ({}): no GPUs are handed out", command, e.getMessage());
            return List.of();
        }
    }

    /** @throws IllegalArgumentException for a line that is not {@code index, uuid, name, memory} */
    public static List<GpuDevice> parse(String csv) {
        List<GpuDevice> gpus = new ArrayList<>();
        for (String line : csv.strip().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.split(",");
            if (fields.length < 4) {
                throw new IllegalArgumentException("'" + line.strip() + "' has not 4 fields");
            }
            // A name may hold commas; index and UUID come first and the memory last.
            String name = String.join(",", java.util.Arrays.copyOfRange(fields, 2, fields.length - 1)).strip();
            String memory = fields[fields.length - 1].strip();
            try {
                gpus.add(new GpuDevice(Integer.parseInt(fields[0].strip()), fields[1].strip(), name,
                        memory.matches("[0-9]+") ? Long.valueOf(memory) : null));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + line.strip() + "' does not start with a GPU index");
            }
        }
        return List.copyOf(gpus);
    }
}
