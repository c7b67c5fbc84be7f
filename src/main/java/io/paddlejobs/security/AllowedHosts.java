package io.paddlejobs.security;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The names this service answers to, as the {@code Host} header gives them. A DNS-rebinding page
 * reaches the service under its own domain name, so only names we know are let in: {@code localhost},
 * the configured names, and IP literals (a page cannot rebind an address: its origin would be the
 * address itself, which the cross-site check covers). When {@code enforced} is false every name passes.
 */
final class AllowedHosts {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final boolean enforced;
    private final Set<String> names;

    AllowedHosts(boolean enforced, List<String> configured) {
        this.enforced = enforced;
        this.names = configured.stream().map(name -> name.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
    }

    boolean allows(String hostHeader) {
        if (!enforced) {
            return true;
        }
        String name = nameOf(hostHeader);
        if (name == null) {
            return false;
        }
        return name.equals("localhost") || name.endsWith(".localhost") || IPV4.matcher(name).matches()
                || name.startsWith("[") || names.contains(name);
    }

    /** The host part of a Host header, lower case, without the port; IPv6 literals keep their brackets. */
    static String nameOf(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) {
            return null;
        }
        String host = hostHeader.strip().toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? null : host.substring(0, end + 1);
        }
        int colon = host.lastIndexOf(':');
        String name = colon < 0 ? host : host.substring(0, colon);
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }
}
