package io.paddlejobs.backend.slurm;

import io.paddlejobs.testing.ServiceClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The whole service with {@code paddlejobs.backend=slurm} on the test cluster, over real HTTP. Each
 * subclass states its shared directory and settings in a {@code @DynamicPropertySource} that calls
 * {@link SlurmCluster#serve}: a directory per class, since a context Spring's cache handed to the next
 * class would serve a directory already deleted.
 */
@Tag("slurm")
@ExtendWith(SlurmCluster.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class SlurmServiceTest {

    @LocalServerPort
    int port;

    ServiceClient api;

    @BeforeEach
    void api() {
        api = new ServiceClient(port);
    }
}
