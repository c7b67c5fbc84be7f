package io.paddlejobs.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Says at start-up where the service can be reached: anyone who reaches it can run processes
 * as this user, so the default is loopback only, and widening that should be a conscious act.
 */
@Component
class LoopbackNotice implements ApplicationListener<WebServerInitializedEvent> {

    private static final Logger log = LoggerFactory.getLogger(LoopbackNotice.class);

    private final String address;

    LoopbackNotice(@Value("${server.address:}") String address) {
        this.address = address;
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        int port = event.getWebServer().getPort();
        if (isLoopback(address)) {
            log.info("paddle-jobs listens on {}:{} (loopback only); set server.address=0.0.0.0 to accept other machines",
                    address, port);
        } else {
            log.warn("paddle-jobs listens on {}:{}, reachable from other machines; there is no authentication yet",
                    address.isEmpty() ? "every address" : address, port);
        }
    }

    private static boolean isLoopback(String address) {
        try {
            return !address.isEmpty() && InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
