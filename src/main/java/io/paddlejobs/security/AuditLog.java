package io.paddlejobs.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * One line per submit, cancel, delete and exec, and per package upload and delete, on the logger
 * {@code paddlejobs.audit}, whatever the outcome:
 * {@code action=submit user=alice namespace=team-a job=train outcome=created status=201},
 * {@code action=upload user=alice namespace=team-a package=sha256:... outcome=created status=201}.
 * Values that are not plain words are quoted, so a name sent by a caller cannot forge a line.
 * Lines are written off the request thread ({@link AuditWriter}); none is lost on shutdown.
 */
@Component
public class AuditLog implements AutoCloseable {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._:@/-]+");
    private static final String SUBMITTED_JOB = AuditLog.class.getName() + ".submittedJob";
    /** A command run in a held job's replica: audited as itself, allowed as a cancel is. */
    public static final String EXEC = "exec";

    private final NamespaceAccess access;
    private final AuditWriter writer = new AuditWriter();

    AuditLog(NamespaceAccess access) {
        this.access = access;
    }

    /**
     * Runs the call and writes its line: the outcome {@code outcome} gives its result when it
     * returns, and when it throws, the outcome its error status means.
     */
    public <T> T record(Action action, String requestedNamespace, String job, Supplier<T> call,
                        Function<T, AuditOutcome> outcome) {
        return recorded(action.verb(), "job", requestedNamespace, job, call, outcome, result -> job);
    }

    /**
     * Like {@link #record}, under a verb no authorizer decides on ({@code exec}, allowed as a cancel is): the line
     * says what was done.
     */
    public <T> T recordAs(String verb, String requestedNamespace, String job, Supplier<T> call,
                          Function<T, AuditOutcome> outcome) {
        return recorded(verb, "job", requestedNamespace, job, call, outcome, result -> job);
    }

    /**
     * Like {@link #record}, for a code package ({@code verb} {@code upload} or {@code delete-package}):
     * the line names {@code package=} instead of a job, the one {@code packageOf} gives once the call
     * returned, else {@code knownPackage}.
     */
    public <T> T recordPackage(String verb, String requestedNamespace, String knownPackage, Supplier<T> call,
                               Function<T, AuditOutcome> outcome, Function<T, String> packageOf) {
        return recorded(verb, "package", requestedNamespace, knownPackage, call, outcome, packageOf);
    }

    /** The line names {@code subjectKey=}: {@code knownSubject} when the call throws, else what {@code subjectOf} gives. */
    private <T> T recorded(String verb, String subjectKey, String requestedNamespace, String knownSubject,
                           Supplier<T> call, Function<T, AuditOutcome> outcome, Function<T, String> subjectOf) {
        String user = access.userName();
        String namespace = access.namespaceMeant(requestedNamespace);
        T result;
        try {
            result = call.get();
        } catch (RuntimeException e) {
            int status = AuditOutcome.statusOf(e);
            write(verb, user, namespace, subjectKey, knownSubject, AuditOutcome.ofError(status), status);
            throw e;
        }
        AuditOutcome done = outcome.apply(result);
        write(verb, user, namespace, subjectKey, subjectOf.apply(result), done, done.status());
        return result;
    }

    /**
     * A caller turned away before any controller ran (no token, a wrong one): an attempt at an
     * action is audited all the same.
     */
    void unauthenticated(HttpServletRequest request) {
        actionOf(request).ifPresent(verb -> write(verb, null, request.getParameter("namespace"), "job",
                jobOf(request), AuditOutcome.UNAUTHENTICATED, 401));
        packageActionOf(request).ifPresent(verb -> write(verb, null, request.getParameter("namespace"), "package",
                jobOf(request), AuditOutcome.UNAUTHENTICATED, 401));
    }

    /**
     * An audited action refused before its handler ran, because the caller may not act in the
     * namespace it names ({@code error}: the 400, 401 or 403 {@link NamespaceAccess#resolve} gave):
     * its line says so, as it would have from inside the handler.
     */
    public void refused(HttpServletRequest request, String requestedNamespace, RuntimeException error) {
        if (isDryRun(request)) {
            return; // plans only, and is audited by no handler either
        }
        int status = AuditOutcome.statusOf(error);
        String user = access.userName();
        String namespace = access.namespaceMeant(requestedNamespace);
        actionOf(request).ifPresent(verb -> write(verb, user, namespace, "job",
                verb.equals(Action.SUBMIT.verb()) ? (String) request.getAttribute(SUBMITTED_JOB) : jobOf(request),
                AuditOutcome.ofError(status), status));
        packageActionOf(request).ifPresent(verb -> write(verb, user, namespace, "package", jobOf(request),
                AuditOutcome.ofError(status), status));
    }

    /**
     * The name a submit's body gives (null when it gives none), for the line of a submit refused
     * after its body was read: a submit's path names no job.
     */
    public static void nameSubmittedJob(HttpServletRequest request, String name) {
        request.setAttribute(SUBMITTED_JOB, name);
    }

    @Override
    public void close() throws InterruptedException {
        writer.close();
    }

    private void write(String verb, String user, String namespace, String subjectKey, String subject,
                       AuditOutcome outcome, int status) {
        writer.write("action=%s user=%s namespace=%s %s=%s outcome=%s status=%d".formatted(
                verb, value(user), value(namespace), subjectKey, value(subject), outcome.word(), status));
    }

    /** As Spring reads {@code dry_run=...} into a boolean. */
    private static boolean isDryRun(HttpServletRequest request) {
        String dryRun = request.getParameter("dry_run");
        return dryRun != null && Set.of("true", "on", "yes", "1").contains(dryRun.trim().toLowerCase(Locale.ROOT));
    }

    /** The verb of the audited job action the request is, if it is one. */
    private static Optional<String> actionOf(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return switch (request.getMethod()) {
            case "POST" -> path.equals("/jobs") || path.equals("/jobs/") ? Optional.of(Action.SUBMIT.verb())
                    : path.matches("/jobs/[^/]+/cancel") ? Optional.of(Action.CANCEL.verb())
                    : path.matches("/jobs/[^/]+/exec") ? Optional.of(EXEC) : Optional.empty();
            case "DELETE" -> path.matches("/jobs/[^/]+") ? Optional.of(Action.DELETE.verb()) : Optional.empty();
            default -> Optional.empty();
        };
    }

    /** The verbs {@link #recordPackage} writes, for a package upload or delete turned away before its controller. */
    private static Optional<String> packageActionOf(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return switch (request.getMethod()) {
            case "POST" -> path.equals("/packages") ? Optional.of("upload") : Optional.empty();
            case "DELETE" -> path.matches("/packages/[^/]+") ? Optional.of("delete-package") : Optional.empty();
            default -> Optional.empty();
        };
    }

    /** The job's name, or the package's id: the path's third part. */
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
