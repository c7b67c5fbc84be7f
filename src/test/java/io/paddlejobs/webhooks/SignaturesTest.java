package io.paddlejobs.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SignaturesTest {

    @Test
    void signatureIsTheOneTheStandardWebhooksLibrariesMake() {
        // The specification's example, which its Python library (standardwebhooks 1.1.0) signs the same.
        assertThat(Signatures.sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                1614265330, "{\"test\": 2432232314}"))
                .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void newSecretsAreValidAndDiffer() {
        String one = Signatures.newSecret();
        assertThat(Signatures.valid(one)).isTrue();
        assertThat(one).startsWith("whsec_").isNotEqualTo(Signatures.newSecret());
    }

    @Test
    void aSecretWithoutThePrefixOrTooShortIsInvalid() {
        assertThat(Signatures.valid("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).isFalse();
        assertThat(Signatures.valid("whsec_c2hvcnQ=")).isFalse();
        assertThat(Signatures.valid("whsec_not base64!")).isFalse();
    }
}
