package io.paddlejobs.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;

@ExtendWith(OutputCaptureExtension.class)
class LoopbackNoticeTest {

    @Test
    void loopbackWithoutTokensSaysSoAndHowToWiden(CapturedOutput output) {
        new LoopbackNotice("127.0.0.1", SecurityProperties.Mode.NONE).onApplicationEvent(startedOn(8080));

        assertThat(output.getOut()).contains("listens on 127.0.0.1:8080 (loopback only; "
                + "paddlejobs.security.mode=none: no authentication)");
    }

    @Test
    void everyAddressWithoutTokensWarnsThatAnyoneMayRunProcesses(CapturedOutput output) {
        new LoopbackNotice("0.0.0.0", SecurityProperties.Mode.NONE).onApplicationEvent(startedOn(8080));

        assertThat(output.getOut()).contains("WARN").contains("anyone who reaches it may run processes")
                .contains("set paddlejobs.security.mode=token");
    }

    @Test
    void everyAddressWithTokensSaysCallersNeedOne(CapturedOutput output) {
        new LoopbackNotice("0.0.0.0", SecurityProperties.Mode.TOKEN).onApplicationEvent(startedOn(8080));

        assertThat(output.getOut()).contains("listens on 0.0.0.0:8080 (paddlejobs.security.mode=token: "
                + "callers need a bearer token)").doesNotContain("WARN");
    }

    private static WebServerInitializedEvent startedOn(int port) {
        WebServer server = new WebServer() {
            @Override
            public void start() {
            }

            @Override
            public void stop() {
            }

            @Override
            public int getPort() {
                return port;
            }
        };
        return new WebServerInitializedEvent(server) {
            @Override
            public WebServerApplicationContext getApplicationContext() {
                return null;
            }
        };
    }
}
