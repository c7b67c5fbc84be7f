package io.paddlejobs.security;

import io.paddlejobs.planning.DnsLabels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

/**
 * The bearer tokens of mode {@code token}, read once from {@code paddlejobs.security.token-file}
 * (YAML, or properties such as {@code tokens[0].user=alice}). Only SHA-256 hashes are kept, so
 * the file (a Kubernetes Secret, say) gives away no token, and a presented token is compared by
 * its hash in constant time.
 */
public final class TokenStore implements TokenAuthenticator {

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern DNS_LABEL = DnsLabels.NAMESPACE_PATTERN;

    /** One line of the file; the limits, when given, replace the service-wide ones for this user. */
    record Entry(String user, String sha256, List<String> namespaces, Integer submissionsPerMinute,
                 Integer maxUnfinishedJobs, Integer maxGpusInUse) {
    }

    private record Known(byte[] hash, Tenant tenant) {
    }

    private final List<Known> tokens;

    private TokenStore(List<Known> tokens) {
        this.tokens = tokens;
    }

    /** Reads and checks the file; any mistake in it stops the service from starting, naming the entry. */
    public static TokenStore load(Path file, SecurityProperties.Limits defaults) {
        if (file == null) {
            throw new IllegalStateException(
                    "paddlejobs.security.mode=token needs paddlejobs.security.token-file (the tokens' SHA-256 hashes)");
        }
        return of(read(file), defaults, file.toString());
    }

    static TokenStore of(List<Entry> entries, SecurityProperties.Limits defaults, String source) {
        List<Known> known = new ArrayList<>();
        Set<String> hashes = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            String where = source + ", tokens[" + i + "]: ";
            if (entry.user() == null || entry.user().isBlank()) {
                throw new IllegalStateException(where + "user is missing");
            }
            String hash = entry.sha256() == null ? "" : entry.sha256().strip().toLowerCase(Locale.ROOT);
            if (!SHA256_HEX.matcher(hash).matches()) {
                throw new IllegalStateException(where + "sha256 must be 64 hex digits (printf %s \"$TOKEN\" | sha256sum)");
            }
            if (!hashes.add(hash)) {
                throw new IllegalStateException(where + "the same token is listed twice");
            }
            if (entry.namespaces() == null || entry.namespaces().isEmpty()) {
                throw new IllegalStateException(where + "namespaces is missing: a token needs at least one");
            }
            entry.namespaces().stream().filter(ns -> !DNS_LABEL.matcher(ns).matches()).findFirst().ifPresent(ns -> {
                throw new IllegalStateException(where + "namespace '" + ns + "' is not a DNS label");
            });
            var limits = new SecurityProperties.Limits(
                    entry.submissionsPerMinute() != null ? entry.submissionsPerMinute() : defaults.submissionsPerMinute(),
                    entry.maxUnfinishedJobs() != null ? entry.maxUnfinishedJobs() : defaults.maxUnfinishedJobs(),
                    entry.maxGpusInUse() != null ? entry.maxGpusInUse() : defaults.maxGpusInUse());
            known.add(new Known(HexFormat.of().parseHex(hash), new Tenant(entry.user(), entry.namespaces(), limits)));
        }
        if (known.isEmpty()) {
            throw new IllegalStateException(source + " lists no tokens: nobody could use the service");
        }
        return new TokenStore(List.copyOf(known));
    }

    /** The tenant whose token this is. Every entry is compared, so the time taken says nothing about which matched. */
    @Override
    public Optional<Tenant> authenticate(String token) {
        byte[] presented = TokenHash.of(token);
        Tenant found = null;
        for (Known known : tokens) {
            if (MessageDigest.isEqual(known.hash(), presented)) {
                found = known.tenant();
            }
        }
        return Optional.ofNullable(found);
    }

    private static List<Entry> read(Path file) {
        if (!Files.isReadable(file)) {
            throw new IllegalStateException("The token file " + file + " cannot be read");
        }
        String name = file.getFileName().toString();
        PropertySourceLoader loader = name.endsWith(".properties")
                ? new PropertiesPropertySourceLoader() : new YamlPropertySourceLoader();
        try {
            List<PropertySource<?>> sources = loader.load("token-file", new FileSystemResource(file));
            return new Binder(ConfigurationPropertySources.from(sources))
                    .bind("tokens", Bindable.listOf(Entry.class))
                    .orElse(List.of());
        } catch (IOException e) {
            throw new UncheckedIOException("The token file " + file + " cannot be read", e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("The token file " + file + " is not valid YAML or properties: "
                    + e.getMessage(), e);
        }
    }
}
