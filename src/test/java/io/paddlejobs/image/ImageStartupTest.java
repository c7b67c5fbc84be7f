package io.paddlejobs.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The AOT cache the Dockerfile's training run writes is the one the image starts from (a cache the
 * JVM cannot map, for a changed class path or JDK, is silently ignored at run time: here
 * -XX:AOTMode=on turns that into a failed start), and what it is worth: the image's start until
 * ready, measured beside {@code java -jar} of the same jar on the same JDK, in one run.
 */
@Tag("image")
class ImageStartupTest {

    @Test
    void theImageStartsFromItsAotCache() {
        try (ImageContainer service = ImageContainer.start(
                List.of("--env=JAVA_TOOL_OPTIONS=-XX:AOTMode=on -Xlog:class+load=info"), List.of())) {
            // The application's own classes come from the cache ("shared objects file"), not from the jar.
            assertThat(service.output()).containsPattern("io\\.paddlejobs\\.PaddleJobsApplication source: shared objects file");
        }
    }

    @Test
    void theImageStartsWithLessWorkThanJavaJarOnItsJdk() {
        ImageContainer.Start image;
        try (ImageContainer service = ImageContainer.start(List.of(), List.of())) {
            image = service.startCost();
        }
        // The same jar and JDK without the cache, with both compilers: `java -jar` as a user starts it.
        ImageContainer.Start plain;
        try (ImageContainer service = ImageContainer.run(List.of("--env=JDK_JAVA_OPTIONS="), List.of("java"),
                List.of("-jar", "app.jar"))) {
            plain = service.startCost();
        }
        System.out.printf("start-up until ready (making the container included): the image %d ms (CPU %d ms), "
                        + "java -jar on its JDK %d ms (CPU %d ms)%n", image.wall().toMillis(), image.cpu().toMillis(),
                plain.wall().toMillis(), plain.cpu().toMillis());

        // CPU rather than wall time: on a loaded machine the wall time says more about the neighbours.
        assertThat(image.cpu()).isLessThan(plain.cpu());
    }

}
