package io.paddlejobs.packages;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Code packages ({@code paddlejobs.packages.*}). The free space kept where they are is
 * {@code paddlejobs.min-free-space}.
 *
 * @param dir               where uploaded archives are kept, one folder per namespace
 * @param maxSize           the largest archive (gzipped tar) accepted
 * @param maxUnpackedSize   the most its files may add up to once unpacked (a small archive can unpack to a huge one)
 * @param urlKey            the secret that signs the content URLs pods fetch packages from; unset, one is
 *                          generated and kept in {@code dir} (several replicas of the service must share it)
 * @param maxUploadsPerUser uploads one user may have in flight at once (429 past it)
 * @param namespaceQuota    the most bytes a namespace's packages may add up to (0: no cap)
 * @param namespaceMaxCount the most packages a namespace may keep (0: no cap)
 * @param expireAfter       a package no unfinished job uses, unused for this long, is deleted (0: never)
 */
@Validated
@ConfigurationProperties("paddlejobs.packages")
public record PackagesProperties(
        @DefaultValue("data/packages") @NotNull Path dir,
        @DefaultValue("64MB") @NotNull DataSize maxSize,
        @DefaultValue("1GB") @NotNull DataSize maxUnpackedSize,
        @Size(min = 32, message = "must be at least 32 characters: it signs the packages' content URLs") String urlKey,
        @DefaultValue("2") @Min(1) int maxUploadsPerUser,
        @DefaultValue("1GB") @NotNull DataSize namespaceQuota,
        @DefaultValue("100") @Min(0) int namespaceMaxCount,
        @DefaultValue("30d") @NotNull Duration expireAfter) {

    /**
     * The most files and directories one package may hold (headers count too): a training program's code is a
     * few hundred; the cap only keeps an archive of empty entries from costing the unpacking more than its bytes.
     */
    static final int MAX_ENTRIES = 10_000;

    /** How often expired packages are looked for: a tenth of {@code expire-after}, at most every 10 minutes. */
    Duration sweepInterval() {
        Duration tenth = expireAfter.dividedBy(10);
        return tenth.compareTo(Duration.ofMinutes(10)) > 0 ? Duration.ofMinutes(10) : tenth;
    }
}
