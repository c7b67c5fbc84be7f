package io.paddlejobs.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The hang of docs/failures-and-hangs.md with real Paddle, for two trainers on Paddle 3 over gloo: rank 1
 * all-reduces while rank 0, which should too, skips the call and waits elsewhere. Each prints a line just before it
 * blocks ({@code rank 0 waits}, {@code rank 1 all-reduces}); rank 1 prints its line a moment before it enters the
 * call, so a dump taken at once may still find it outside: take it again until {@link #assertRankOneInTheCollective}
 * holds. The same program on every backend.
 */
public final class GlooHang {

    /** Rank 1 all-reduces; rank 0 waits instead (no single quote: {@code python -c '...'} carries it). */
    public static final String PROGRAM = """
            import threading
            import paddle
            import paddle.distributed as dist
            def wait_instead_of_all_reduce():
                print("rank 0 waits", flush=True); threading.Event().wait()
            def all_reduce_gradients():
                t = paddle.ones([4]); print("rank 1 all-reduces", flush=True); dist.all_reduce(t)
            dist.init_parallel_env()
            if dist.get_rank() == 0:
                wait_instead_of_all_reduce()
            else:
                all_reduce_gradients()
            """;

    private GlooHang() {
    }

    /** The entry point that runs it with {@code python}, a Paddle 3 venv's, unbuffered. */
    public static String entryPoint(Path python) {
        return python + " -u -c '" + PROGRAM + "'";
    }

    /** Whether both ranks printed the line they print just before they block. */
    public static boolean bothRanksReachedTheirCall(String rankZeroLog, String rankOneLog) {
        return rankZeroLog.contains("rank 0 waits") && rankOneLog.contains("rank 1 all-reduces");
    }

    /**
     * A dump ({@code POST /jobs/{name}/stacks}) shows rank 1 inside Paddle's all_reduce, called from the program's
     * function, and rank 0 in the function it waits in instead, with no collective at all.
     */
    public static void assertRankOneInTheCollective(JsonNode dump) {
        assertThat(mainThreadFunctions(dump, 1)).as("rank 1: %s", dump)
                .containsSubsequence("all_reduce", "all_reduce_gradients").doesNotContain("wait_instead_of_all_reduce");
        assertThat(mainThreadFunctions(dump, 0)).as("rank 0: %s", dump)
                .contains("wait_instead_of_all_reduce").doesNotContain("all_reduce");
    }

    /** The functions of the main thread of a trainer's first Python process, innermost first. */
    private static List<String> mainThreadFunctions(JsonNode dump, int rank) {
        List<String> functions = new ArrayList<>();
        for (JsonNode replica : dump.path("replicas")) {
            if (replica.path("index").asInt() == rank) {
                replica.path("processes").path(0).path("threads").forEach(thread -> {
                    if ("MainThread".equals(thread.path("name").asString())) {
                        thread.path("frames").forEach(frame -> functions.add(frame.path("function").asString()));
                    }
                });
            }
        }
        return functions;
    }
}
