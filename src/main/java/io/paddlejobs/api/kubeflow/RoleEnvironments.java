package io.paddlejobs.api.kubeflow;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The two roles' variables as a request says them: what both roles set alike in {@code env}, the rest in
 * {@code trainer_env} and {@code pserver_env}; secrets in {@code env_from_secrets}, which every replica of a
 * job gets (a secret only one role named reaches the other too: the report says so).
 */
record RoleEnvironments(ReplicaSpec trainers, ReplicaSpec pservers) {

    void carry(PaddleJobImport report) {
        String trainerEnv = ReplicaSpec.containerPath(PaddleJobImport.WORKER) + ".env";
        if (pservers == null) {
            report.put("env", trainers.env());
            if (!trainers.env().isEmpty()) {
                report.carried(trainerEnv, "env");
            }
        } else {
            String pserverEnv = ReplicaSpec.containerPath(PaddleJobImport.MASTER) + ".env";
            Map<String, String> shared = new LinkedHashMap<>();
            Map<String, String> ownOfTrainers = new LinkedHashMap<>(trainers.env());
            Map<String, String> ownOfPservers = new LinkedHashMap<>(pservers.env());
            trainers.env().forEach((name, value) -> {
                if (value.equals(pservers.env().get(name))) {
                    shared.put(name, value);
                    ownOfTrainers.remove(name);
                    ownOfPservers.remove(name);
                }
            });
            report.put("env", shared);
            report.put("trainer_env", ownOfTrainers);
            report.put("pserver_env", ownOfPservers);
            if (!trainers.env().isEmpty()) {
                report.carried(trainerEnv, shared.isEmpty() ? "trainer_env" : "env, trainer_env");
            }
            if (!pservers.env().isEmpty()) {
                report.carried(pserverEnv, shared.isEmpty() ? "pserver_env" : "env, pserver_env");
            }
        }
        Map<String, Object> secrets = new LinkedHashMap<>(trainers.secrets());
        if (pservers != null) {
            pservers.secrets().forEach((name, ref) -> {
                Object other = secrets.putIfAbsent(name, ref);
                if (other != null && !Objects.equals(other, ref)) {
                    report.refuse(ReplicaSpec.containerPath(PaddleJobImport.MASTER) + ".env." + name,
                            "names another secret than the Worker's " + name + ": a secret variable is per job here");
                }
            });
            if (!trainers.secrets().keySet().equals(pservers.secrets().keySet())) {
                report.drop("env_from_secrets (roles)", "a secret variable only one role named reaches every replica:"
                        + " secrets are per job here");
            }
        }
        report.put("env_from_secrets", secrets);
        secrets.keySet().forEach(name -> report.carried("env." + name + ".valueFrom.secretKeyRef",
                "env_from_secrets." + name));
    }
}
