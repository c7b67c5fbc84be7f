package io.paddlejobs.planning;

/** CPU in millicores, written as Kubernetes writes it: {@code 2} for whole CPUs, {@code 250m} otherwise. */
public record Cpu(long millis) {

    public Cpu {
        if (millis < 0) {
            throw new IllegalArgumentException("cpu cannot be negative");
        }
    }

    public static Cpu cores(int cores) {
        return new Cpu(cores * 1000L);
    }

    /** Reads {@code 2} or {@code 250m}, as {@link #toString} writes them. */
    public static Cpu parse(String text) {
        try {
            return text.endsWith("m")
                    ? new Cpu(Long.parseLong(text.substring(0, text.length() - 1)))
                    : new Cpu(Long.parseLong(text) * 1000);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a CPU amount such as 2 or 250m");
        }
    }

    public Cpu times(int n) {
        return new Cpu(Math.multiplyExact(millis, n));
    }

    public Cpu plus(Cpu other) {
        return new Cpu(millis + other.millis);
    }

    /** Split {@code parts} ways, rounded down to whole millicores (the finest unit Kubernetes takes). */
    public Cpu dividedBy(int parts) {
        return new Cpu(millis / parts);
    }

    /** Whole cores, rounded down, but at least one: what a process may use as its thread count. */
    public int wholeCoresAtLeastOne() {
        return (int) Math.max(1, millis / 1000);
    }

    @Override
    public String toString() {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : millis + "m";
    }
}
