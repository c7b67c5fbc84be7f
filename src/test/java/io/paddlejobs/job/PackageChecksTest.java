package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.paddlejobs.job.JobBackend;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;

class PackageChecksTest {

    static final String ID = "sha256:" + "a".repeat(64);

    /** A backend that answers only the port's default methods (whether it ships packages), and this. */
    static JobBackend backend(boolean ships) {
        return (JobBackend) Proxy.newProxyInstance(JobBackend.class.getClassLoader(), new Class<?>[] {JobBackend.class},
                (proxy, method, args) -> method.getName().equals("shipsCodePackages") ? ships
                        : InvocationHandler.invokeDefault(proxy, method, args));
    }

    static CodePackages uploadedBy(String namespace) {
        return new CodePackages() {
            @Override
            public boolean exists(String ns, String id) {
                return ns.equals(namespace) && id.equals(ID);
            }

            @Override
            public void unpackInto(String ns, String id, Path directory) {
                throw new UnsupportedOperationException();
            }
        };
    }

    @Test
    void aBackendThatDoesNotShipPackagesRefusesOneNamingTheField() {
        var refused = catchThrowableOfType(ErrorResponseException.class,
                () -> PackageChecks.require(ID, "team-a", backend(false), uploadedBy("team-a")));

        assertThat(refused.getStatusCode().value()).isEqualTo(400);
        assertThat(refused.getBody().getProperties()).containsEntry("errors",
                List.of(Map.of("field", "package", "message", refused.getBody().getDetail().substring("package: ".length()))));
    }

    @Test
    void aPackageOfAnotherNamespaceIsRefusedAndOneOfItsOwnIsNot() {
        var refused = catchThrowableOfType(ErrorResponseException.class,
                () -> PackageChecks.require(ID, "team-b", backend(true), uploadedBy("team-a")));

        assertThat(refused.getStatusCode().value()).isEqualTo(400);
        assertThat(refused.getBody().getDetail()).contains("team-b", ID, "POST /packages");
        assertThatNoException().isThrownBy(() -> PackageChecks.require(ID, "team-a", backend(true), uploadedBy("team-a")));
    }
}
