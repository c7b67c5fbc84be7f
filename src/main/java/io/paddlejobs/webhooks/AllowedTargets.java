package io.paddlejobs.webhooks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where webhooks may go ({@code paddlejobs.webhooks.allowed-hosts}): a URL's host must be allowed by
 * name or address, and every address it resolves to must be public or itself allowed, so a name
 * the operator allowed cannot be pointed (rebound) at the service's own machine, its cluster or a
 * cloud's metadata address. The check resolves through the JVM's address cache, which the sender's
 * connection then uses: both see the same addresses, and each attempt is checked again.
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

    /** @return why {@code url} may not be sent to, naming the rule; {@code null} when it may */
    String refusal(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            return "must be a URL: " + e.getReason();
        }
        String host = uri.getHost();
        if (host == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
            return "must be an http or https URL with a host";
        }
        host = host.toLowerCase(Locale.ROOT);
        String literal = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        boolean isLiteral = Block.looksLikeAddress(literal);
        if (!isLiteral && !nameAllowed(host)) {
            return "names host " + host + ", which webhooks may not be sent to (" + setting + ")";
        }
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(literal);
        } catch (UnknownHostException e) {
            return "names host " + host + ", which does not resolve";
        }
        for (InetAddress address : addresses) {
            if (!addressAllowed(address)) {
                return "names host " + host + ", which resolves to " + address.getHostAddress()
                        + ", an address webhooks may not be sent to (" + setting + ")";
            }
        }
        return null;
    }

    private boolean nameAllowed(String host) {
        if (loopbackOnly) {
            return host.equals("localhost");
        }
        return names.contains(host) || domains.stream().anyMatch(host::endsWith);
    }

    private boolean addressAllowed(InetAddress address) {
        if (loopbackOnly) {
            return address.isLoopbackAddress();
        }
        return blocks.stream().anyMatch(block -> block.contains(address)) || isPublic(address);
    }

    /** Neither this machine, nor a private, link-local (cloud metadata), shared or multicast network. */
    static boolean isPublic(InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress() || address.isLinkLocalAddress()
                || address.isSiteLocalAddress() || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first != 0 && !(first == 100 && second >= 64 && second < 128) // carrier-grade NAT
                    && !(first == 192 && second == 0 && (b[2] & 0xff) == 0) && first < 224;
        }
        if (address instanceof Inet6Address) {
            return (b[0] & 0xfe) != 0xfc; // unique local fc00::/7
        }
        return false;
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
