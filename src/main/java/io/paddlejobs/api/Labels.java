package io.paddlejobs.api;

import io.paddlejobs.planning.LabelKeys;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * User labels in Kubernetes label syntax: {@code [prefix/]name} keys and short values. The keys
 * the service itself uses to select a job's objects are refused, as a user value would break
 * selection, and so are Kubernetes' own (the API server would refuse the Job, or its selector
 * would no longer match its pods).
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = Labels.Validator.class)
@interface Labels {

    String message() default "invalid labels";

    /**
     * Labels a job's pods select nodes by ({@code node_selector}), not labels it sets: any key of label
     * syntax, Kubernetes' own included ({@code kubernetes.io/hostname}).
     */
    boolean ofNodes() default false;

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<Labels, Map<String, String>> {
        private boolean ofNodes;
        private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]");
        private static final Pattern PREFIX = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
        private static final int MAX_LABELS = 64;

        @Override
        public void initialize(Labels annotation) {
            ofNodes = annotation.ofNodes();
        }

        @Override
        public boolean isValid(Map<String, String> labels, ConstraintValidatorContext context) {
            if (labels == null) {
                return true;
            }
            var report = new EntryViolations(context);
            if (labels.size() > MAX_LABELS) {
                report.onMap("may hold at most " + MAX_LABELS + " labels");
            }
            labels.forEach((key, value) -> {
                String problem = ofNodes ? syntaxProblem(key) : keyProblem(key);
                if (problem != null) {
                    report.onEntry(key, problem);
                }
                if (value == null || !(value.isEmpty() || NAME.matcher(value).matches())) {
                    report.onEntry(key, "value must be empty or at most 63 letters, digits, '-', '_' or '.', "
                            + "starting and ending with a letter or digit");
                }
            });
            return report.none();
        }

        private static String keyProblem(String key) {
            String syntax = syntaxProblem(key);
            if (syntax != null) {
                return syntax;
            }
            if (LabelKeys.isOurs(key)) {
                return "is set by paddle-jobs and may not be given";
            }
            if (LabelKeys.isKubernetes(key)) {
                return "is reserved for Kubernetes (keys under kubernetes.io and k8s.io, job-name, controller-uid):"
                        + " the cluster sets it, and a user value would break the job's selectors";
            }
            return null;
        }

        private static String syntaxProblem(String key) {
            int slash = key.lastIndexOf('/');
            String prefix = slash < 0 ? null : key.substring(0, slash);
            String name = slash < 0 ? key : key.substring(slash + 1);
            if (prefix != null && (prefix.length() > 253 || !PREFIX.matcher(prefix).matches())) {
                return "key prefix must be a DNS subdomain such as example.com";
            }
            if (!NAME.matcher(name).matches()) {
                return "key name must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
            }
            return null;
        }
    }
}
