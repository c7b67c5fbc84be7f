package io.paddlejobs.sweeps;

import org.springframework.web.util.UriComponentsBuilder;

/** The URLs a sweep's answers carry, under the base URL the request reached (or the configured one). */
record SweepUrls(String base) {

    String sweep(String namespace, String name) {
        return UriComponentsBuilder.fromUriString(base).path("/sweeps/{name}").queryParam("namespace", namespace)
                .buildAndExpand(name).toUriString();
    }

    String job(String namespace, String name) {
        return UriComponentsBuilder.fromUriString(base).path("/jobs/{name}/status").queryParam("namespace", namespace)
                .buildAndExpand(name).toUriString();
    }

    String compare(String namespace, String sweep) {
        return UriComponentsBuilder.fromUriString(base).path("/compare").queryParam("sweep", sweep)
                .queryParam("namespace", namespace).build().encode().toUriString();
    }
}
