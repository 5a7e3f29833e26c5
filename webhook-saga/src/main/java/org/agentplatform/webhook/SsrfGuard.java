package org.agentplatform.webhook;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Refuses callbacks to addresses inside our network: loopback, private, link-local (cloud metadata among
 * them), carrier-grade NAT, unique-local, unspecified, multicast and reserved ranges, unless an allow-listed
 * network ({@code 127.0.0.1/32}, {@code 10.0.0.0/8}...) contains the address.
 */
public final class SsrfGuard {

    private static final List<Network> BLOCKED = List.of(
            Network.parse("0.0.0.0/8"), Network.parse("100.64.0.0/10"), Network.parse("192.0.0.0/24"), Network.parse("198.18.0.0/15"),
            Network.parse("240.0.0.0/4"), Network.parse("fc00::/7"), Network.parse("64:ff9b::/96"));

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final List<Network> allowed;

    public SsrfGuard(List<String> allowedNetworks) {
        this.allowed = allowedNetworks.stream().filter(network -> !network.isBlank()).map(Network::parse).toList();
    }

    /** Throws {@link Refused} unless {@code address} (what {@code host} resolved to) may be called. */
    public void check(String host, InetAddress address) {
        if (isInternal(address) && allowed.stream().noneMatch(network -> network.contains(address))) {
            throw new Refused("The webhook host " + host + " resolves to " + address.getHostAddress()
                    + ", an internal address; refused (not on the allow-list)");
        }
    }

    /**
     * Checks a URL host that is an IP literal ({@code 10.0.0.1}, {@code [::1]}): such a host is never
     * resolved, so it must be checked before connecting. Host names are checked as they resolve.
     */
    public void checkLiteral(String host) {
        literal(host).ifPresent(address -> check(host, address));
    }

    static Optional<InetAddress> literal(String host) {
        if (host == null) {
            return Optional.empty();
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (!IPV4.matcher(bare).matches() && !bare.contains(":")) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(bare));
        } catch (UnknownHostException notALiteral) {
            return Optional.empty();
        }
    }

    static boolean isInternal(InetAddress address) {
        InetAddress plain = unmapped(address);
        return plain.isLoopbackAddress() || plain.isSiteLocalAddress() || plain.isLinkLocalAddress() || plain.isAnyLocalAddress()
                || plain.isMulticastAddress() || BLOCKED.stream().anyMatch(network -> network.contains(plain))
                || (plain instanceof Inet4Address && plain.getHostAddress().equals("255.255.255.255"));
    }

    /** An IPv4-mapped IPv6 address ({@code ::ffff:10.0.0.1}) is judged as the IPv4 address it carries. */
    private static InetAddress unmapped(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet6Address && bytes.length == 16) {
            boolean mapped = true;
            for (int index = 0; index < 10; index++) {
                mapped &= bytes[index] == 0;
            }
            if (mapped && bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff) {
                try {
                    return InetAddress.getByAddress(new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]});
                } catch (UnknownHostException impossible) {
                    throw new IllegalStateException(impossible);
                }
            }
        }
        return address;
    }

    /** Why a callback was not sent: it goes into the delivery row's {@code last_error}. */
    public static final class Refused extends RuntimeException {

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** A CIDR network. */
    record Network(byte[] prefix, int bits) {

        static Network parse(String cidr) {
            String[] parts = cidr.strip().split("/");
            try {
                byte[] address = InetAddress.getByName(parts[0]).getAddress();
                int bits = parts.length > 1 ? Integer.parseInt(parts[1]) : address.length * 8;
                if (bits < 0 || bits > address.length * 8) {
                    throw new IllegalArgumentException("Bad prefix length in " + cidr);
                }
                return new Network(address, bits);
            } catch (UnknownHostException | NumberFormatException malformed) {
                throw new IllegalArgumentException("Not a network: " + cidr, malformed);
            }
        }

        boolean contains(InetAddress address) {
            byte[] candidate = address.getAddress();
            if (candidate.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((candidate[bit / 8] & mask) != (prefix[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
