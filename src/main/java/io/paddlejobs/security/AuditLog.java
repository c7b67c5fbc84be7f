package io.paddlejobs.security;

import io.paddlejobs.planning.InvalidJobRequestException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponse;

/**
 * One line per submit, cancel and delete, on the logger {@code paddlejobs.audit}, whatever the
 * outcome: {@code action=submit user=alice namespace=team-a job=train outcome=created status=201}.
 * Values that are not plain words are quoted, so a name sent by a caller cannot forge a line.
 */
@Component
public class AuditLog {

    private static final Logger log = LoggerFactory.getLogger("paddlejobs.audit");
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._:@/-]+");

    private final NamespaceAccess access;

    AuditLog(NamespaceAccess access) {
        this.access = access;
    }

    /**
     * Runs the call and writes its line: the outcome named by {@code outcome} when it returns, and
     * when it throws, the outcome its error status means.
     */
    public <T> T record(Action action, String requestedNamespace, String job, Supplier<T> call,
                        Function<T, String> outcome) {
        String user = access.userName();
        String namespace = access.namespaceMeant(requestedNamespace);
        T result;
        try {
            result = call.get();
        } catch (RuntimeException e) {
            int status = e instanceof ErrorResponse error ? error.getStatusCode().value()
                    : e instanceof InvalidJobRequestException ? 400 : 500;
            write(action, user, namespace, job, outcomeOf(status), status);
            throw e;
        }
        String done = outcome.apply(result);
        write(action, user, namespace, job, done, switch (done) {
            case "created" -> 201;
            case "deleted" -> 204;
            default -> 200;
        });
        return result;
    }

    private static String outcomeOf(int status) {
        return switch (status) {
            case 401 -> "unauthenticated";
            case 403 -> "denied";
            case 404 -> "not-found";
            case 409 -> "conflict";
            case 429 -> "limited";
            default -> status >= 500 ? "error" : "rejected";
        };
    }

    private static void write(Action action, String user, String namespace, String job, String outcome, int status) {
        log.info("action={} user={} namespace={} job={} outcome={} status={}",
                action.verb(), value(user), value(namespace), value(job), outcome, status);
    }

    /**
     * A caller turned away before any controller ran (no token, a wrong one): an attempt at an
     * action is audited all the same.
     */
    static void unauthenticated(HttpServletRequest request) {
        actionOf(request).ifPresent(action -> write(action, null, request.getParameter("namespace"),
                jobOf(request), "unauthenticated", 401));
    }

    private static java.util.Optional<Action> actionOf(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return switch (request.getMethod()) {
            case "POST" -> path.equals("/jobs") || path.equals("/jobs/") ? java.util.Optional.of(Action.SUBMIT)
                    : path.matches("/jobs/[^/]+/cancel") ? java.util.Optional.of(Action.CANCEL) : java.util.Optional.empty();
            case "DELETE" -> path.matches("/jobs/[^/]+") ? java.util.Optional.of(Action.DELETE) : java.util.Optional.empty();
            default -> java.util.Optional.empty();
        };
    }

    private static String jobOf(HttpServletRequest request) {
        String[] parts = request.getRequestURI().substring(request.getContextPath().length()).split("/");
        return parts.length > 2 ? parts[2] : null;
    }

    /** Controls (C0, DEL, C1), line and paragraph separators, and format characters such as bidi overrides. */
    private static boolean mustEscape(int c) {
        int type = Character.getType(c);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.UNASSIGNED || type == Character.SURROGATE;
    }

    static String value(String text) {
        if (text == null) {
            return "-";
        }
        if (PLAIN.matcher(text).matches()) {
            return text;
        }
        StringBuilder quoted = new StringBuilder("\"");
        text.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                quoted.append('\\').appendCodePoint(c);
            } else if (mustEscape(c)) {
                quoted.append("\\u%04x".formatted(c));
            } else {
                quoted.appendCodePoint(c);
            }
        });
        return quoted.append('"').toString();
    }
}
