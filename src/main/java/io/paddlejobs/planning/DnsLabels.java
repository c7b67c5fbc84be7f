package io.paddlejobs.planning;

import java.util.regex.Pattern;

/**
 * The two DNS-label rules of the service's names, written once: every layer (request body,
 * query parameters, token file) checks a name against these. They live in planning because it
 * imports nothing, so that every package may use them.
 */
public final class DnsLabels {

    /** A namespace: a DNS-1123 label, at most 63 lower-case letters, digits and '-'. */
    public static final String NAMESPACE = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";
    public static final Pattern NAMESPACE_PATTERN = Pattern.compile(NAMESPACE);
    /** The same rule for the other names a request gives of the cluster's objects (a queue, a priority class). */
    public static final String DNS_LABEL_MESSAGE =
            "must be at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit";

    /** A job's name: DNS-1035, not DNS-1123, as it is also the job's Service, whose name may not start with a digit. */
    public static final String JOB_NAME = "[a-z]([-a-z0-9]*[a-z0-9])?";
    public static final String JOB_NAME_MESSAGE =
            "must be lower-case letters, digits and '-', starting with a letter and ending with a letter or digit";

    private static final Pattern JOB_NAME_PATTERN = Pattern.compile(JOB_NAME);
    /** The longest name anything of the service keeps (a DNS label's; the history's columns): requests allow fewer. */
    private static final int LONGEST_KEPT_NAME = 63;

    private DnsLabels() {
    }

    /** Whether a job could bear this name: one that cannot is in no backend and no history. */
    public static boolean couldNameAJob(String name) {
        return name.length() <= LONGEST_KEPT_NAME && JOB_NAME_PATTERN.matcher(name).matches();
    }
}
