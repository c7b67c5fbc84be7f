package io.paddlejobs.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Says at start-up where the service can be reached and whether callers need a token: in
 * {@code paddlejobs.security.mode=none} anyone who reaches it can run processes as this user, so
 * the default is loopback only, and widening that should be a conscious act.
 */
@Component
class LoopbackNotice implements ApplicationListener<WebServerInitializedEvent> {

    private static final Logger log = LoggerFactory.getLogger(LoopbackNotice.class);

    private final String address;
    private final SecurityProperties.Mode mode;

    @Autowired
    LoopbackNotice(ServerProperties server, SecurityProperties security) {
        this(server.getAddress() == null ? "" : server.getAddress().getHostAddress(), security.mode());
    }

    LoopbackNotice(String address, SecurityProperties.Mode mode) {
        this.address = address;
        this.mode = mode;
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        int port = event.getWebServer().getPort();
        boolean open = mode == SecurityProperties.Mode.NONE;
        String setting = "paddlejobs.security.mode=" + mode.name().toLowerCase(Locale.ROOT);
        String auth = open ? setting + ": no authentication" : setting + ": callers need a bearer token";
        if (isLoopback(address)) {
            log.info("paddle-jobs listens on {}:{} (loopback only; {}); set server.address=0.0.0.0 to accept other machines",
                    address, port, auth);
        } else if (open) {
            log.warn("paddle-jobs listens on {}:{}, reachable from other machines, and anyone who reaches it may run "
                    + "processes ({}); set paddlejobs.security.mode=token (or kubernetes)", address.isEmpty() ? "every address" : address,
                    port, auth);
        } else {
            log.info("paddle-jobs listens on {}:{} ({})", address.isEmpty() ? "every address" : address, port, auth);
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
