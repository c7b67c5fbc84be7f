package io.paddlejobs.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Says at start-up when the JDK has no virtual threads: Tomcat then serves requests on a fixed
 * pool of platform threads, and clients that send their bodies slowly hold them. One caller (a user,
 * else an address) holds at most {@code paddlejobs.web.max-bodies-per-caller} with bodies in progress
 * and as many again with refused bodies read after their answer; all callers together at most
 * {@code max-bodies-in-progress} of each. Where that adds up to the whole pool, it says so louder.
 */
@Component
class ThreadingNotice implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(ThreadingNotice.class);
    private static final int FIRST_WITH_VIRTUAL_THREADS = 21;

    private final WebProperties web;
    private final int threads;

    ThreadingNotice(WebProperties web, @Value("${server.tomcat.threads.max:200}") int threads) {
        this.web = web;
        this.threads = threads;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        int feature = Runtime.version().feature();
        if (feature >= FIRST_WITH_VIRTUAL_THREADS) {
            return;
        }
        int heldBySlowBodies = 2 * web.maxBodiesInProgress();
        if (heldBySlowBodies >= threads) {
            log.warn("Running on JDK {}: requests are served by a fixed pool of {} threads (server.tomcat.threads.max),"
                    + " and clients sending request bodies slowly may hold {} of them (twice"
                    + " paddlejobs.web.max-bodies-in-progress): all of them; lower that setting below half the pool,"
                    + " or run on JDK 21 or later", feature, threads, heldBySlowBodies);
        } else {
            log.info("Running on JDK {}: requests are served by a fixed pool of {} threads; clients sending request"
                    + " bodies slowly hold at most {} of them (twice paddlejobs.web.max-bodies-in-progress), and one"
                    + " caller at most twice paddlejobs.web.max-bodies-per-caller; on JDK 21 or later each request has"
                    + " a virtual thread of its own", feature, threads, heldBySlowBodies);
        }
    }
}
