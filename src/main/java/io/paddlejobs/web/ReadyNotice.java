package io.paddlejobs.web;

import java.net.InetAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * One line once the service answers, with the URL to open: after a first start's many lines of
 * build and framework output, that line is what a new user waits for.
 */
@Component
class ReadyNotice implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(ReadyNotice.class);

    private final InetAddress address;

    ReadyNotice(ServerProperties server) {
        this.address = server.getAddress();
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        if (event.getApplicationContext() instanceof WebServerApplicationContext web && web.getWebServer() != null) {
            log.info("paddle-jobs is ready: open {}", jobsPage(address, web.getWebServer().getPort()));
        }
    }

    /** The jobs page on the address the service listens on; any-address listeners are reached on localhost. */
    static String jobsPage(InetAddress address, int port) {
        String host;
        if (address == null || address.isAnyLocalAddress()) {
            host = "localhost";
        } else if (address.getHostAddress().contains(":")) {
            host = "[" + address.getHostAddress() + "]";
        } else {
            host = address.getHostAddress();
        }
        return "http://" + host + ":" + port + "/jobs";
    }
}
