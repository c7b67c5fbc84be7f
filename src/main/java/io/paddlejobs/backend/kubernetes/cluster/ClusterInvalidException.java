package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.paddlejobs.problem.ProblemType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * The API server found an object made from the request invalid (422): the input is at fault, so
 * it is a 400 like every other input error, naming the request field where one can be told from
 * the server's field path, with the server's own words.
 */
public class ClusterInvalidException extends ErrorResponseException {

    public ClusterInvalidException(String action, Status status, String serverMessage, Throwable cause) {
        super(HttpStatus.BAD_REQUEST, ProblemDetail.forStatus(HttpStatus.BAD_REQUEST), cause);
        getBody().setType(ProblemType.INVALID_REQUEST.uri());
        setTitle("Invalid request");
        setDetail("The Kubernetes API server refused the job's objects as invalid (" + action + "): " + serverMessage
                + ". Nothing was left behind.");
        getBody().setProperty("errors", errors(status, serverMessage));
    }

    private static List<Map<String, Object>> errors(Status status, String serverMessage) {
        List<StatusCause> causes = status == null || status.getDetails() == null || status.getDetails().getCauses() == null
                ? List.of() : status.getDetails().getCauses();
        List<Map<String, Object>> errors = new ArrayList<>();
        for (StatusCause cause : causes) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("field", requestField(cause.getField()));
            error.put("message", cause.getMessage() != null ? cause.getMessage() : serverMessage);
            errors.add(error);
        }
        if (errors.isEmpty()) {
            errors.add(new LinkedHashMap<>(Map.of("field", "request", "message", serverMessage)));
        }
        return errors;
    }

    /** The request field an object's field path came from; the path itself where none is known. */
    static String requestField(String path) {
        if (path == null || path.isBlank()) {
            return "request";
        }
        if (path.contains("labels")) {
            return "labels";
        }
        if (path.contains(".env")) {
            return "env";
        }
        if (path.endsWith(".image")) {
            return "image";
        }
        if (path.contains("ports") || path.contains("Port")) {
            return "port";
        }
        if (path.equals("metadata.name") || path.endsWith("subdomain") || path.endsWith("hostname")
                || path.endsWith("serviceName")) {
            return "name";
        }
        return path;
    }
}
