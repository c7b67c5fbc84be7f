package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves a container's env the way the kubelet does: field references from the pod, then
 * {@code $(NAME)} expanded from variables defined earlier, {@code $$} reduced to {@code $}.
 */
public final class KubeletEnv {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\$|\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    private KubeletEnv() {
    }

    public static Map<String, String> resolve(List<EnvVar> env, Map<String, String> podFields) {
        Map<String, String> resolved = new LinkedHashMap<>();
        for (EnvVar var : env) {
            if (var.getValueFrom() != null) {
                String path = var.getValueFrom().getFieldRef().getFieldPath();
                resolved.put(var.getName(), podFields.get(path));
            } else {
                resolved.put(var.getName(), expand(var.getValue(), resolved));
            }
        }
        return resolved;
    }

    public static String expand(String text, Map<String, String> defined) {
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = m.group().equals("$$") ? "$"
                    : defined.getOrDefault(m.group(1), m.group());
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }
}
