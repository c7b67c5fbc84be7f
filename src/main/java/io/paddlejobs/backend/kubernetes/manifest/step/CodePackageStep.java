package io.paddlejobs.backend.kubernetes.manifest.step;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.manifest.PodStep;
import io.paddlejobs.backend.kubernetes.manifest.ShippedCode;
import java.util.List;
import java.util.Map;

/**
 * The job's code package, fetched from this service by an init container and unpacked into an
 * emptyDir that is the main container's working directory: replicas start in it, as they do on
 * the local backend. The init container comes first, before any waiting for pservers.
 *
 * <p>The service checked the archive when it was uploaded (relative names, no {@code ..}, no
 * links or devices, entries and unpacked size capped). The script makes sure it unpacks exactly
 * that archive: the bytes' sha256 must be the package's id, their number at most the upload
 * limit, and the fetch is bounded in time. tar itself (GNU or busybox) also drops leading
 * {@code /} and refuses {@code ..}; the emptyDir's size limit caps what it can write at all.
 * The archive is fetched beside, not into, the working directory ({@code subPath}), so no file
 * of the package can be it.
 */
public record CodePackageStep(ShippedCode code) implements PodStep {

    public static final String CONTAINER = "fetch-package";
    public static final String VOLUME = "code";
    /** Where the init container sees the volume; the package unpacks into {@code code/} under it. */
    public static final String FETCH_PATH = "/paddle-package";
    public static final String WORKING_DIR = "/workspace";

    /** The volume's root comes as {@code $1}; the rest from the environment. */
    static final String SCRIPT = """
            set -u
            fail() { echo "package $PACKAGE_ID: $*" >&2; exit 1; }
            archive="$1/archive.tar.gz"
            mkdir -p "$1/code" || fail "cannot create the working directory"
            # The pipe caps the size; wget's own exit status goes through a file.
            { timeout "$TIMEOUT_SECONDS" wget -S -O - "$PACKAGE_URL" 2>"$1/wget.log"; echo $? >"$1/wget.rc"; } \\
              | head -c $((MAX_BYTES + 1)) >"$archive"
            status=$(sed -n 's/.*HTTP\\/[0-9.]* \\([0-9][0-9][0-9]\\).*/\\1/p' "$1/wget.log" | tail -n 1)
            rc=$(cat "$1/wget.rc")
            size=$(wc -c <"$archive" | tr -d ' ')
            if [ -z "$status" ]; then
              case "$rc" in
                124|143) fail "no answer from the service within ${TIMEOUT_SECONDS}s" ;;
                *) fail "the service did not answer: $(grep -v '^ *$' "$1/wget.log" | tail -n 1)" ;;
              esac
            fi
            [ "$status" = 200 ] || fail "the service answered HTTP $status"
            [ "$size" -le "$MAX_BYTES" ] || fail "larger than $MAX_BYTES bytes"
            case "$rc" in
              0) ;;
              124|143) fail "not fetched within ${TIMEOUT_SECONDS}s (HTTP $status, $size bytes so far)" ;;
              *) fail "the download broke off (HTTP $status, $size bytes, wget exit $rc)" ;;
            esac
            actual=$(sha256sum "$archive" | cut -d ' ' -f 1)
            [ "sha256:$actual" = "$PACKAGE_ID" ] || fail "the fetched bytes have sha256:$actual; not unpacking them"
            tar -x -z -o -f "$archive" -C "$1/code" || fail "could not be unpacked"
            rm -f "$archive" "$1/wget.log" "$1/wget.rc"
            echo "package $PACKAGE_ID ($size bytes) unpacked"
            """;

    @Override
    public PodParts apply(PodParts pod) {
        Map<String, Quantity> small = Map.of("cpu", new Quantity("100m"), "memory", new Quantity("64Mi"));
        var fetch = new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(code.image())
                .withCommand(List.of("sh", "-c", Expansion.literal(SCRIPT), CONTAINER, FETCH_PATH))
                .addNewEnv().withName("PACKAGE_ID").withValue(code.id()).endEnv()
                .addNewEnv().withName("PACKAGE_URL").withValue(Expansion.literal(code.url().toString())).endEnv()
                .addNewEnv().withName("MAX_BYTES").withValue(Long.toString(code.maxArchiveBytes())).endEnv()
                .addNewEnv().withName("TIMEOUT_SECONDS").withValue(Long.toString(code.timeout().toSeconds())).endEnv()
                .addNewVolumeMount().withName(VOLUME).withMountPath(FETCH_PATH).endVolumeMount()
                .withNewResources().withRequests(small).withLimits(small).endResources()
                // Its last words ("package sha256:...: the service answered HTTP 404") become the pod's status.
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .build();
        // Room for the archive while it is unpacked, and for everything it unpacks to.
        var volume = new VolumeBuilder().withName(VOLUME).withNewEmptyDir()
                .withSizeLimit(new Quantity(Long.toString(code.maxArchiveBytes() + code.maxUnpackedBytes())))
                .endEmptyDir().build();
        var mount = new VolumeMountBuilder().withName(VOLUME).withMountPath(WORKING_DIR).withSubPath("code").build();
        return pod.withSpec(new PodSpecBuilder(pod.spec()).addToVolumes(volume).addToInitContainers(fetch).build())
                .withMain(new ContainerBuilder(pod.main()).addToVolumeMounts(mount).withWorkingDir(WORKING_DIR).build());
    }
}
