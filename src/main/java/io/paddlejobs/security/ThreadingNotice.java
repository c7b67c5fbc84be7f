package io.paddlejobs.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Says at start-up when the JDK has no virtual threads: Tomcat then serves requests on a fixed
 * pool of platform threads, and a few hundred clients that send slowly can hold all of them
 * (bodies are cut off after {@code paddlejobs.web.request-body-timeout}, but a client can come back).
 */
@Component
class ThreadingNotice implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(ThreadingNotice.class);
    private static final int FIRST_WITH_VIRTUAL_THREADS = 21;

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        int feature = Runtime.version().feature();
        if (feature < FIRST_WITH_VIRTUAL_THREADS) {
            log.warn("Running on JDK {}: requests are served by a fixed pool of threads, which slow clients can hold; "
                    + "run on JDK 21 or later, where spring.threads.virtual.enabled (on by default) serves each on its own "
                    + "virtual thread", feature);
        }
    }
}
