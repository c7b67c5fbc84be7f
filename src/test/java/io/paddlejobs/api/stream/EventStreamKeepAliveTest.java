package io.paddlejobs.api.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobQuery;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** The one keep-alive every event stream has, and a stream's own second-by-second events beside it. */
class EventStreamKeepAliveTest {

    /** An emitter that keeps what is sent to it, as the text that would go on the wire. */
    private static final class Recording extends SseEmitter {

        final List<String> sent = new CopyOnWriteArrayList<>();

        @Override
        public void send(SseEventBuilder event) {
            sent.add(event.build().stream().map(part -> String.valueOf(part.getData())).collect(Collectors.joining()));
        }
    }

    @Test
    void aQuietWatchSendsAKeepAliveCommentEveryFifteenSecondsThenItsEndWhenItsTimeIsUp() {
        var emitter = new Recording();
        var stream = new NamespaceStream(new JobQuery("quiet", null, Map.of(), 1, null), java.util.Set.of(), emitter, null, key -> "",
                40);

        for (int second = 1; second <= 29; second++) {
            stream.everySecond();
        }
        assertThat(emitter.sent).hasSize(1).allSatisfy(text -> assertThat(text).contains("still here"));
        stream.everySecond();
        assertThat(emitter.sent).hasSize(2);
        for (int second = 31; second <= 45; second++) {
            stream.everySecond();
        }

        assertThat(emitter.sent).hasSize(3);
        assertThat(emitter.sent.get(2)).contains("event:end", "timeout");
        assertThat(stream.ended()).isTrue();
    }
}
