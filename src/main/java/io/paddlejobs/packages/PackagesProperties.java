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
 * Code packages ({@code paddlejobs.packages.*}).
 *
 * @param dir               where uploaded archives are kept, one folder per namespace
 * @param maxSize           the largest archive (gzipped tar) accepted
 * @param maxUnpackedSize   the most its files may add up to once unpacked (a small archive can unpack to a huge one)
 * @param maxEntries        the most files and directories one package may hold (headers count too)
 * @param urlKey            the secret that signs the content URLs pods fetch packages from; unset, one is
 *                          generated and kept in {@code dir} (several replicas of the service must share it)
 * @param maxUploadsPerUser uploads one user may have in flight at once (429 past it)
 * @param uploadGracePeriod how long an upload may take before its rate is checked against {@code upload-min-rate}
 * @param uploadMinRate     the average bytes per second an upload must keep once its grace period is over (408 below it)
 * @param namespaceQuota    the most bytes a namespace's packages may add up to (0: no cap)
 * @param namespaceMaxCount the most packages a namespace may keep (0: no cap)
 * @param minFreeSpace      below this much free space where packages are kept, uploads are refused (507);
 *                          the local backend's {@code min-free-space} unless set
 * @param expireAfter       a package no unfinished job uses, unused for this long, is deleted (0: never)
 * @param sweepInterval     how often expired packages are looked for
 */
@Validated
@ConfigurationProperties("paddlejobs.packages")
public record PackagesProperties(
        @DefaultValue("data/packages") @NotNull Path dir,
        @DefaultValue("64MB") @NotNull DataSize maxSize,
        @DefaultValue("1GB") @NotNull DataSize maxUnpackedSize,
        @DefaultValue("10000") @Min(1) int maxEntries,
        @Size(min = 32, message = "must be at least 32 characters: it signs the packages' content URLs") String urlKey,
        @DefaultValue("2") @Min(1) int maxUploadsPerUser,
        @DefaultValue("10s") @NotNull Duration uploadGracePeriod,
        @DefaultValue("64KB") @NotNull DataSize uploadMinRate,
        @DefaultValue("1GB") @NotNull DataSize namespaceQuota,
        @DefaultValue("100") @Min(0) int namespaceMaxCount,
        @DefaultValue("512MB") @NotNull DataSize minFreeSpace,
        @DefaultValue("30d") @NotNull Duration expireAfter,
        @DefaultValue("10m") @NotNull Duration sweepInterval) {
}
