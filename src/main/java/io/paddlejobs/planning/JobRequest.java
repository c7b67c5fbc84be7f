package io.paddlejobs.planning;

import java.util.Map;

/**
 * What a user asked for, field by field as in the request document. A {@code null} number or
 * memory means "not given": the planner derives it, and only given values can contradict
 * each other. A {@code null} mode is a parameter-server job.
 *
 * @param maxRunTime how long the trainers may run before the job is stopped and fails; {@code null}: no limit
 * @param maxRestarts how many times the whole job is started again after a failure; {@code null}: never
 * @param restartOn  which failures are retried; {@code null}: any, when there are restarts to spend
 * @param stallTimeout how long no trainer may print a line or report a metric before the job is stalled;
 *                   {@code null}: never
 * {@code codePackage} is the request's {@code package}: the uploaded code the replicas start in.
 */
public record JobRequest(
        String name,
        String entryPoint,
        String pserverEntryPoint,
        String image,
        Integer numGpus,
        Integer numCpus,
        Memory memory,
        Integer trainers,
        Integer trainerCpu,
        Integer trainerGpu,
        Memory trainerMem,
        Integer pservers,
        Integer pserverCpu,
        Memory pserverMem,
        Integer port,
        Integer portsNum,
        Integer portsNumForSparse,
        Boolean useGpu,
        Map<String, String> env,
        Map<String, String> labels,
        JobMode mode,
        java.time.Duration maxRunTime,
        String codePackage,
        Integer maxRestarts,
        RestartOn restartOn,
        java.time.Duration stallTimeout) {

    public JobRequest {
        env = env == null ? Map.of() : Map.copyOf(env);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /** The same request with another first pserver port. */
    public JobRequest withPort(int newPort) {
        return new JobRequest(name, entryPoint, pserverEntryPoint, image, numGpus, numCpus, memory,
                trainers, trainerCpu, trainerGpu, trainerMem, pservers, pserverCpu, pserverMem,
                newPort, portsNum, portsNumForSparse, useGpu, env, labels, mode, maxRunTime, codePackage,
                maxRestarts, restartOn, stallTimeout);
    }

    /** The same request under another name (the service names unnamed jobs before planning). */
    public JobRequest withName(String newName) {
        return new JobRequest(newName, entryPoint, pserverEntryPoint, image, numGpus, numCpus, memory,
                trainers, trainerCpu, trainerGpu, trainerMem, pservers, pserverCpu, pserverMem,
                port, portsNum, portsNumForSparse, useGpu, env, labels, mode, maxRunTime, codePackage,
                maxRestarts, restartOn, stallTimeout);
    }

    /** How many restarts the job may spend; 0 when none were asked for. */
    public int maxRestartsOrDefault() {
        return maxRestarts != null ? maxRestarts : 0;
    }

    /** Which failures are retried: as asked, else any. */
    public RestartOn restartOnOrDefault() {
        return restartOn != null ? restartOn : RestartOn.ANY;
    }

    /** The mode asked for, or the parameter-server default. */
    public JobMode modeOrDefault() {
        return mode != null ? mode : JobMode.PS;
    }
}
