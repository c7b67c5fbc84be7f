package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabelKeysTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            paddlejobs.io/role            | true  | false
            paddlejobs.io/anything        | true  | false
            app.kubernetes.io/name        | true  | true
            app.kubernetes.io/managed-by  | true  | true
            app.kubernetes.io/version     | false | true
            batch.kubernetes.io/job-name  | false | true
            k8s.io/x                      | false | true
            job-name                      | false | true
            controller-uid                | false | true
            team                          | false | false
            example.com/team              | false | false
            sub.paddlejobs.io/team        | false | false
            """)
    void keysTheServiceOrKubernetesSetAreReserved(String key, boolean ours, boolean kubernetes) {
        assertThat(LabelKeys.isOurs(key)).isEqualTo(ours);
        assertThat(LabelKeys.isKubernetes(key)).isEqualTo(kubernetes);
        assertThat(LabelKeys.isReserved(key)).isEqualTo(ours || kubernetes);
    }
}
