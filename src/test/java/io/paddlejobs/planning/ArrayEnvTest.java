package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArrayEnvTest {

    private final Map<String, String> planned = new LinkedHashMap<>();

    {
        planned.put("TRAINING_ROLE", "TRAINER");
        planned.put("PADDLE_TRAINERS_NUM", "2");
        planned.put("PADDLE_PSERVERS", "vision-pserver-0.vision:6174,vision-pserver-1.vision:6174");
    }

    @Test
    void keepsTheVariablesInTheirOrderAndEqualsTheMapItWasMadeFrom() {
        Map<String, String> env = new ArrayEnv(planned);

        assertThat(env.keySet()).containsExactly("TRAINING_ROLE", "PADDLE_TRAINERS_NUM", "PADDLE_PSERVERS");
        assertThat(env).isEqualTo(planned).hasSameHashCodeAs(planned);
        assertThat(env.get("PADDLE_TRAINERS_NUM")).isEqualTo("2");
        assertThat(env.get("HOME")).isNull();
        assertThat(env.containsKey("PADDLE_PSERVERS")).isTrue();
    }

    @Test
    void isReadOnlyAndCopiesWhatItIsGiven() {
        Map<String, String> env = new ArrayEnv(planned);
        planned.put("LATER", "1");

        assertThat(env).doesNotContainKey("LATER");
        assertThatThrownBy(() -> env.put("X", "1")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> env.entrySet().iterator().next().setValue("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aReplicaKeepsItsEnvironmentThisWay() {
        Replica replica = new Replica(Role.TRAINER, 0, "vision-trainer-0", planned);

        assertThat(replica.env()).isInstanceOf(ArrayEnv.class).isEqualTo(planned);
        assertThat(new Replica(Role.TRAINER, 0, "vision-trainer-0", replica.env()).env()).isSameAs(replica.env());
    }
}
