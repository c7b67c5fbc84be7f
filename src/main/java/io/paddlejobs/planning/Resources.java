package io.paddlejobs.planning;

/** What one replica (or a whole job, for totals) is given. */
public record Resources(Cpu cpu, int gpu, Memory memory) {

    public Resources times(int n) {
        return new Resources(cpu.times(n), gpu * n, memory.times(n));
    }

    public Resources plus(Resources other) {
        return new Resources(cpu.plus(other.cpu), gpu + other.gpu, memory.plus(other.memory));
    }
}
