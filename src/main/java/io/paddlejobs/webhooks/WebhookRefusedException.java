package io.paddlejobs.webhooks;

import io.paddlejobs.problem.ProblemType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** A {@code notify} URL this service may not send to: a 400 naming the field and the rule. */
class WebhookRefusedException extends ErrorResponseException {

    WebhookRefusedException(String field, String url, String rule) {
        super(HttpStatus.BAD_REQUEST);
        getBody().setType(ProblemType.WEBHOOK_NOT_ALLOWED.uri());
        setTitle("Webhook not allowed");
        setDetail(field + " " + rule);
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("field", field);
        error.put("message", rule);
        error.put("rejected", url);
        getBody().setProperty("errors", List.of(error));
    }
}
