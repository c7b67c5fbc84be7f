package io.paddlejobs.webhooks;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where webhooks may go ({@code paddlejobs.webhooks.allowed-hosts}). A URL names an allowed host by
 * name, and every address that name resolves to must be public or in a listed block, so a name the
 * operator allowed cannot be pointed (rebound) at the service's own machine, its cluster or a cloud's
 * metadata address; or it names an address, which a listed block must contain (being public is not
 * enough: the operator listed hosts, not the internet). Its port is a real one. The sender connects to
 * the addresses this check returned, never resolving the name again, so no second answer of the name's
 * DNS can differ from what was checked; each attempt is checked anew.
 */
final class AllowedTargets {

    /** Resolves a host name; a test's own names in tests. */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final List<String> names = new ArrayList<>();
    private final List<String> domains = new ArrayList<>();
    private final List<Block> blocks = new ArrayList<>();
    private final boolean loopbackOnly;
    private final String setting;
    private final Resolver resolver;

    /**
     * @param allowed      the setting's entries
     * @param sharedMode   whether tenants share the service (modes other than {@code none}): then an empty
     *                     list allows nothing rather than loopback
     */
    AllowedTargets(List<String> allowed, boolean sharedMode, Resolver resolver) {
        this.resolver = resolver;
        this.loopbackOnly = allowed.isEmpty() && !sharedMode;
        this.setting = allowed.isEmpty() ? (sharedMode ? "none are allowed until paddlejobs.webhooks.allowed-hosts names them"
                : "loopback only while paddlejobs.webhooks.allowed-hosts is empty")
                : "paddlejobs.webhooks.allowed-hosts: " + String.join(", ", allowed);
        for (String entry : allowed) {
            String e = entry.trim().toLowerCase(Locale.ROOT);
            if (e.startsWith("*.")) {
                domains.add(e.substring(1));
            } else if (Block.looksLikeAddress(e)) {
                blocks.add(Block.parse(e));
            } else {
                names.add(e);
            }
        }
    }

    /**
     * What a check found: the addresses to connect to, or why not.
     *
     * @param refusal   why the URL may not be sent to, naming the rule; {@code null} when it may
     * @param addresses what its host resolved to, each allowed; empty when refused
     */
    record Checked(String refusal, List<InetAddress> addresses) {

        Checked {
            addresses = List.copyOf(addresses);
        }

        static Checked refused(String why) {
            return new Checked(why, List.of());
        }
    }

    /** @return why {@code url} may not be sent to, naming the rule; {@code null} when it may */
    String refusal(String url) {
        return check(url).refusal();
    }

    /** Checks {@code url}, resolving its host once: its addresses are where an attempt connects. */
    Checked check(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            return Checked.refused("must be a URL: " + e.getReason());
        }
        String host = uri.getHost();
        if (host == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
            return Checked.refused("must be an http or https URL with a host");
        }
        if (uri.getPort() == 0 || uri.getPort() > 65535) {
            return Checked.refused("names port " + uri.getPort() + "; a port is 1 to 65535");
        }
        host = host.toLowerCase(Locale.ROOT);
        String literal = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        boolean isLiteral = Block.looksLikeAddress(literal);
        if (!isLiteral && !nameAllowed(host)) {
            return Checked.refused("names host " + host + ", which webhooks may not be sent to (" + setting + ")");
        }
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(literal);
        } catch (UnknownHostException e) {
            return Checked.refused("names host " + host + ", which does not resolve");
        }
        for (InetAddress address : addresses) {
            if (isLiteral && !literalAllowed(address)) {
                return Checked.refused("names address " + address.getHostAddress() + ", which no block of "
                        + setting + " contains");
            }
            if (!isLiteral && !resolvedAllowed(address)) {
                return Checked.refused("names host " + host + ", which resolves to " + address.getHostAddress()
                        + ", an address webhooks may not be sent to (" + setting + ")");
            }
        }
        return new Checked(null, List.of(addresses));
    }

    private boolean nameAllowed(String host) {
        if (loopbackOnly) {
            return host.equals("localhost");
        }
        return names.contains(host) || domains.stream().anyMatch(host::endsWith);
    }

    /** An address the URL names itself: only where the operator listed it. */
    private boolean literalAllowed(InetAddress address) {
        if (loopbackOnly) {
            return address.isLoopbackAddress();
        }
        return listed(address);
    }

    /** An address an allowed name resolves to: listed, or public. */
    private boolean resolvedAllowed(InetAddress address) {
        if (loopbackOnly) {
            return address.isLoopbackAddress();
        }
        return listed(address) || PublicAddresses.isPublic(address);
    }

    private boolean listed(InetAddress address) {
        return blocks.stream().anyMatch(block -> block.contains(address));
    }

    /** An address or a CIDR block of them. */
    record Block(byte[] network, int bits) {

        static boolean looksLikeAddress(String text) {
            String address = text.contains("/") ? text.substring(0, text.indexOf('/')) : text;
            return address.matches("\\d{1,3}(\\.\\d{1,3}){3}") || address.contains(":");
        }

        static Block parse(String text) {
            String[] parts = text.split("/", 2);
            try {
                byte[] network = InetAddress.getByName(parts[0]).getAddress();
                int bits = parts.length == 2 ? Integer.parseInt(parts[1]) : network.length * 8;
                if (bits < 0 || bits > network.length * 8) {
                    throw new IllegalArgumentException("paddlejobs.webhooks.allowed-hosts: " + text
                            + " has a prefix longer than its address");
                }
                return new Block(network, bits);
            } catch (UnknownHostException | NumberFormatException e) {
                throw new IllegalArgumentException("paddlejobs.webhooks.allowed-hosts: " + text
                        + " is neither an address nor a CIDR block", e);
            }
        }

        boolean contains(InetAddress address) {
            byte[] a = address.getAddress();
            if (a.length != network.length) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >> (i % 8);
                if ((a[i / 8] & mask) != (network[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
