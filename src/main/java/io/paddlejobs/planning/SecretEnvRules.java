package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A variable is either a literal or a secret, never both: a secret that a literal of the same name
 * replaced (or the other way round) would leave the user unsure which value a replica reads.
 */
final class SecretEnvRules {

    private SecretEnvRules() {
    }

    static List<Violation> check(JobRequest.Code code) {
        List<Violation> violations = new ArrayList<>();
        for (String name : code.envFromSecrets().keySet()) {
            for (var literal : List.of(Map.entry("env", code.env()), Map.entry("pserver_env", code.pserverEnv()),
                    Map.entry("trainer_env", code.trainerEnv()))) {
                if (literal.getValue().containsKey(name)) {
                    violations.add(new Violation(List.of("env_from_secrets", literal.getKey()),
                            name + " is both a secret (env_from_secrets) and a value in " + literal.getKey()
                                    + ": give it in one of them", name));
                }
            }
        }
        return violations;
    }
}
