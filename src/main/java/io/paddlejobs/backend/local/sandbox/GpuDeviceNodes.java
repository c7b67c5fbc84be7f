package io.paddlejobs.backend.local.sandbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The device nodes a confined replica needs for its GPUs, over the sandbox's own minimal
 * {@code /dev}: {@code nvidia<index>} of each of its GPUs and the driver's control nodes, and
 * nothing of another GPU. Nodes the machine lacks are left out: {@code nvidia-modeset} exists only
 * with a display driver, {@code nvidia-uvm} once its module is loaded.
 *
 * @param root where the nodes are: {@code /dev}, or a test's directory of stand-ins
 */
public record GpuDeviceNodes(Path root) {

    public static final GpuDeviceNodes HOST = new GpuDeviceNodes(Path.of("/dev"));
    /** What CUDA opens besides the GPUs' own nodes. */
    static final List<String> CONTROL = List.of("nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset");

    /** The names, under {@link #root} and under the sandbox's {@code /dev}; none for a replica without GPUs. */
    public List<String> present(List<Integer> gpus) {
        if (gpus.isEmpty()) {
            return List.of();
        }
        List<String> nodes = new ArrayList<>(gpus.stream().map(index -> "nvidia" + index).toList());
        nodes.addAll(CONTROL);
        return nodes.stream().filter(node -> Files.exists(root.resolve(node))).toList();
    }
}
