package io.paddlejobs.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Says at start-up when the JDK has no virtual threads: Tomcat then serves requests on a fixed
 * pool of platform threads, and clients that send their bodies slowly hold them. One caller (a user,
 * else an address) holds at most {@code paddlejobs.web.max-bodies-per-caller} with bodies in progress
 * and as many again with refused bodies read after their answer, but enough callers together still hold
 * the whole pool.
 */
@Component
class ThreadingNotice implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(ThreadingNotice.class);
    private static final int FIRST_WITH_VIRTUAL_THREADS = 21;

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        int feature = Runtime.version().feature();
        if (feature < FIRST_WITH_VIRTUAL_THREADS) {
            log.warn("Running on JDK {}: requests are served by a fixed pool of threads; one caller sending bodies "
                    + "slowly holds at most paddlejobs.web.max-bodies-per-caller of them, but several such callers together "
                    + "can hold them all; run on JDK 21 or later, where spring.threads.virtual.enabled (on by default) "
                    + "serves each request on its own virtual thread", feature);
        }
    }
}
