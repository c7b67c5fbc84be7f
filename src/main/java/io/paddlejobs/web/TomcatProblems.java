package io.paddlejobs.web;

import io.paddlejobs.api.ProblemAdvice;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * The answers Tomcat gives itself, before the application sees the request (a NUL or a bad
 * %-escape in the path, a request line it cannot parse), as problem documents instead of its
 * HTML page. They replace the error report of Tomcat's host, which Spring Boot installs; the
 * application's own errors never reach it (they are written by {@link ProblemAdvice} or the
 * error page, {@code api.ErrorPageProblems}).
 */
@Component
class TomcatProblems implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        // Runs after Spring Boot's own customizer, whose context customizer adds the valve replaced here.
        factory.addContextCustomizers(context -> {
            Pipeline host = context.getParent().getPipeline();
            for (Valve valve : host.getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.removeValve(valve);
                }
            }
            host.addValve(new ProblemReport());
            // The host adds a valve of this class when it starts unless it finds one of this very class.
            if (context.getParent() instanceof StandardHost standardHost) {
                standardHost.setErrorReportValveClass(ProblemReport.class.getName());
            }
        });
    }

    /** Tomcat's error report, written as {@code application/problem+json} with no detail of the server. */
    static final class ProblemReport extends ErrorReportValve {

        ProblemReport() {
            setShowReport(false);
            setShowServerInfo(false);
        }

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            // As Tomcat's own report: not for a success, nor when a body was written, nor twice.
            if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
                return;
            }
            HttpStatus known = HttpStatus.resolve(status);
            String title = known == null ? "Error" : known.getReasonPhrase();
            String detail = status < 500
                    ? "The request could not be read: its request line, path or headers are malformed"
                            + " (such as a NUL or an invalid %-escape in the path)."
                    : "The service failed to handle this request.";
            try {
                response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
                response.setCharacterEncoding("UTF-8");
                response.getReporter().write("{\"title\":\"" + title + "\",\"status\":" + status
                        + ",\"detail\":\"" + detail + "\"}");
                response.finishResponse();
            } catch (java.io.IOException | IllegalStateException e) {
                // The client went, or the response cannot be written: nothing more to tell anyone.
            }
        }
    }
}
