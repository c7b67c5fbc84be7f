package io.paddlejobs.backend.local.process;

import io.paddlejobs.planning.JobPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A script the entry point names by an absolute path that is not on this machine: every replica
 * would fail at once (Python exits 2, "can't open file"), so the plan says so at submit. Only plain
 * paths of scripts ({@code .py}, {@code .sh}) count: a path with shell syntax in it, or an output file
 * the program will write, is no mistake to warn of.
 */
public final class MissingScripts {

    private static final Pattern SCRIPT = Pattern.compile("(?<=^|\\s)(/[^\\s$*?;&|<>'\"`(){}\\\\]+\\.(?:py|sh))(?=\\s|$)");

    private MissingScripts() {
    }

    public static List<String> warnings(JobPlan plan) {
        Set<String> missing = new LinkedHashSet<>();
        missing.addAll(missing(plan.spec().code().entryPoint()));
        missing.addAll(missing(plan.spec().code().pserverEntryPoint()));
        List<String> warnings = new ArrayList<>();
        for (String script : missing) {
            warnings.add(("the entry point names %s, which does not exist on this machine: every replica would fail"
                    + " (Python exits 2). Give the script's absolute path, or ship its folder as a code package")
                    .formatted(script));
        }
        return warnings;
    }

    static List<String> missing(String entryPoint) {
        List<String> missing = new ArrayList<>();
        if (entryPoint == null) {
            return missing;
        }
        Matcher scripts = SCRIPT.matcher(entryPoint);
        while (scripts.find()) {
            if (!Files.exists(Path.of(scripts.group(1)))) {
                missing.add(scripts.group(1));
            }
        }
        return missing;
    }
}
