package io.paddlejobs.backend.local.schedule;

/**
 * One GPU this machine may hand out, as {@code nvidia-smi} lists it.
 *
 * @param index     the driver's index, which is also the minor number of its {@code /dev/nvidia<index>} node
 * @param uuid      the driver's UUID ({@code GPU-...}); {@code null} where the GPU was configured by index only
 * @param memoryMib its memory, {@code null} where not known
 */
public record GpuDevice(int index, String uuid, String name, Long memoryMib) {

    /**
     * How {@code CUDA_VISIBLE_DEVICES} names it: the UUID where known, as it does not depend on the
     * order in which CUDA enumerates devices (fastest first, unlike {@code nvidia-smi}); else the index.
     */
    String visibleId() {
        return uuid != null ? uuid : Integer.toString(index);
    }
}
