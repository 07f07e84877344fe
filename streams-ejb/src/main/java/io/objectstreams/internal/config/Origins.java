package io.objectstreams.internal.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/** Web origins ({@code scheme://host[:port]}) in one comparable form: lower case, with the port always spelled out. */
public final class Origins {

    private Origins() {
    }

    /** The normalized origin, or empty when {@code text} is not an http(s) or ws(s) origin. */
    public static Optional<String> normalize(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(text.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            int defaultPort = switch (scheme) {
                case "http", "ws" -> 80;
                case "https", "wss" -> 443;
                default -> -1;
            };
            String path = uri.getRawPath();
            if (defaultPort < 0 || uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null
                    || uri.getRawUserInfo() != null || (path != null && !path.isEmpty() && !path.equals("/"))) {
                return Optional.empty();
            }
            int port = uri.getPort() < 0 ? defaultPort : uri.getPort();
            String web = scheme.startsWith("ws") ? (scheme.equals("ws") ? "http" : "https") : scheme;
            return Optional.of(web + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
