package io.paddlejobs.backend.local;

import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Role;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What stands in for a container image on this machine ({@code paddlejobs.local.images}): a directory
 * of programs put first on the replica's {@code PATH}, such as a virtual environment's {@code bin}, so
 * that an entry point written for the image ({@code python -m paddle.distributed.launch ...}, as
 * Kubeflow's examples are) runs that environment's {@code python}. An entry names an image exactly
 * or, ending in {@code *}, every image that starts with what comes before it; the longest match wins.
 */
final class LocalImages {

    /** One entry: {@code IMAGE=DIR} or {@code PREFIX*=DIR}. */
    private record Entry(String image, boolean prefix, String bin) {

        boolean matches(String asked) {
            return prefix ? asked.startsWith(image) : asked.equals(image);
        }
    }

    private final List<Entry> entries;

    private LocalImages(List<Entry> entries) {
        this.entries = entries;
    }

    /** @throws IllegalArgumentException naming the setting, for an entry that is not {@code IMAGE=DIR} with an absolute DIR */
    static LocalImages of(List<String> settings) {
        List<Entry> entries = new ArrayList<>();
        for (String setting : settings) {
            int equals = setting.lastIndexOf('=');
            String image = equals < 0 ? "" : setting.substring(0, equals).strip();
            String bin = equals < 0 ? "" : setting.substring(equals + 1).strip();
            if (image.isEmpty() || !bin.startsWith("/")) {
                throw new IllegalArgumentException("paddlejobs.local.images: " + setting + " is not IMAGE=DIR (or"
                        + " IMAGE-PREFIX*=DIR) with an absolute directory, such as paddlepaddle/paddle:3*=/opt/paddle3/bin");
            }
            boolean prefix = image.endsWith("*");
            entries.add(new Entry(prefix ? image.substring(0, image.length() - 1) : image, prefix, bin));
        }
        entries.sort(Comparator.comparing(Entry::prefix).thenComparing(e -> -e.image().length()));
        return new LocalImages(List.copyOf(entries));
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The directory that stands in for the image a replica of this role asks for, if any. */
    Optional<String> binFor(JobRequest request, Role role) {
        String image = imageOf(request, role);
        return image == null ? Optional.empty()
                : entries.stream().filter(e -> e.matches(image)).map(Entry::bin).findFirst();
    }

    /** The image a role's replicas ask for: the pservers' own, else the job's; {@code null} when none is given. */
    static String imageOf(JobRequest request, Role role) {
        var code = request.code();
        return role == Role.PSERVER && code.pserverImage() != null ? code.pserverImage() : code.image();
    }

    /** {@code PATH} with the image's directory first. */
    static String path(String bin, String path) {
        return path == null || path.isEmpty() ? bin : bin + ":" + path;
    }
}
