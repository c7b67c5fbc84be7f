package io.paddlejobs.webhooks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * Which addresses are public: neither this machine, nor a private, link-local (cloud metadata), shared,
 * multicast, documentation or benchmarking network. An IPv6 address that carries an IPv4 one (IPv4-mapped
 * or -compatible, NAT64's 64:ff9b::/96, 6to4's 2002::/16) is as public as the IPv4 address it carries,
 * since a gateway on the way delivers it there; one whose IPv4 address cannot be read back (Teredo, a
 * local NAT64 prefix) is not public.
 */
final class PublicAddresses {

    private PublicAddresses() {
    }

    static boolean isPublic(InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress() || address.isLinkLocalAddress()
                || address.isSiteLocalAddress() || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return isPublicV4(b);
        }
        if (address instanceof Inet6Address) {
            byte[] carried = carriedV4(b);
            if (carried != null) {
                return isPublicV4(carried);
            }
            return (b[0] & 0xfe) != 0xfc // unique local fc00::/7
                    && !startsWith(b, 0x20, 0x01, 0x0d, 0xb8) // documentation 2001:db8::/32
                    && !startsWith(b, 0x20, 0x01, 0x00, 0x00) // Teredo 2001::/32: its IPv4 address is hidden
                    && !startsWith(b, 0x20, 0x01, 0x00, 0x02, 0x00, 0x00) // benchmarking 2001:2::/48
                    && !startsWith(b, 0x00, 0x64, 0xff, 0x9b, 0x00, 0x01) // local-use NAT64 64:ff9b:1::/48
                    && !startsWith(b, 0x01, 0x00, 0, 0, 0, 0, 0, 0); // discard-only 100::/64
        }
        return false;
    }

    private static boolean isPublicV4(byte[] b) {
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        int third = b[2] & 0xff;
        if (first == 0 || first == 10 || first == 127 || first >= 224) { // this network, private, loopback, multicast and reserved
            return false;
        }
        return !(first == 100 && second >= 64 && second < 128) // carrier-grade NAT
                && !(first == 169 && second == 254) // link-local, cloud metadata
                && !(first == 172 && second >= 16 && second < 32) && !(first == 192 && second == 168) // private
                && !(first == 192 && second == 0 && (third == 0 || third == 2)) // IETF protocol assignments; TEST-NET-1
                && !(first == 192 && second == 88 && third == 99) // the 6to4 relays' anycast
                && !(first == 198 && (second == 18 || second == 19)) // benchmarking
                && !(first == 198 && second == 51 && third == 100) // TEST-NET-2
                && !(first == 203 && second == 0 && third == 113); // TEST-NET-3
    }

    /** The IPv4 address an IPv6 address carries where a gateway would deliver to it; {@code null} for none. */
    private static byte[] carriedV4(byte[] b) {
        if (isZero(b, 0, 10) && ((b[10] == (byte) 0xff && b[11] == (byte) 0xff) || isZero(b, 10, 12))) {
            return Arrays.copyOfRange(b, 12, 16); // IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96
        }
        if (startsWith(b, 0x00, 0x64, 0xff, 0x9b) && isZero(b, 4, 12)) {
            return Arrays.copyOfRange(b, 12, 16); // NAT64 64:ff9b::/96
        }
        if (startsWith(b, 0x20, 0x02)) {
            return Arrays.copyOfRange(b, 2, 6); // 6to4 2002::/16
        }
        return null;
    }

    private static boolean startsWith(byte[] b, int... prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if ((b[i] & 0xff) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
