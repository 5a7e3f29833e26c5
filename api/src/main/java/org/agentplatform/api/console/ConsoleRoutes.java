package org.agentplatform.api.console;

import io.swagger.v3.oas.annotations.Hidden;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The web console at {@code /console}: one page ({@code console/index.html}) for every console path, so that a deep
 * link, a reload and the back button all land where they were; its script and style under {@code /console/assets/};
 * xterm.js (from its WebJar) under {@code /console/vendor/xterm/}. The page holds no data: everything it shows it reads
 * from the public API with the session cookie. Every answer carries a Content-Security-Policy that allows scripts,
 * styles and connections of this origin only (no inline script or style, no framing).
 */
@Hidden
@RestController
final class ConsoleRoutes {

    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:;"
            + " connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
    private static final String XTERM = "META-INF/resources/webjars/xterm/4.9.0/";
    private static final Map<String, String> VENDOR = Map.of("xterm.js", XTERM + "lib/xterm.js", "xterm.css", XTERM + "css/xterm.css");
    private static final Pattern ASSET = Pattern.compile("[a-z][a-z0-9-]*\\.(js|css|svg)");
    private static final Map<String, MediaType> TYPES = Map.of("js", MediaType.parseMediaType("text/javascript;charset=UTF-8"),
            "css", MediaType.parseMediaType("text/css;charset=UTF-8"), "svg", MediaType.parseMediaType("image/svg+xml"),
            "html", MediaType.parseMediaType("text/html;charset=UTF-8"));

    /** Read once from the jar: the files do not change while the service runs. */
    private final Map<String, Optional<byte[]>> files = new ConcurrentHashMap<>();

    @GetMapping({"/console", "/console/", "/console/{*path}"})
    ResponseEntity<byte[]> page() {
        return answer("console/index.html", "html");
    }

    @GetMapping("/console/assets/{name}")
    ResponseEntity<byte[]> asset(@PathVariable String name) {
        if (!ASSET.matcher(name).matches()) {
            throw notFound(name);
        }
        return answer("console/assets/" + name, name.substring(name.lastIndexOf('.') + 1));
    }

    @GetMapping("/console/vendor/xterm/{name}")
    ResponseEntity<byte[]> vendor(@PathVariable String name) {
        String resource = VENDOR.get(name);
        if (resource == null) {
            throw notFound(name);
        }
        return answer(resource, name.substring(name.lastIndexOf('.') + 1));
    }

    private ResponseEntity<byte[]> answer(String resource, String extension) {
        byte[] body = files.computeIfAbsent(resource, ConsoleRoutes::read).orElseThrow(() -> notFound(resource));
        return ResponseEntity.ok()
                .contentType(TYPES.get(extension))
                .cacheControl(CacheControl.noCache())
                .header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .header("Referrer-Policy", "no-referrer")
                .header("X-Content-Type-Options", "nosniff")
                .body(body);
    }

    private static Optional<byte[]> read(String resource) {
        try (InputStream in = ConsoleRoutes.class.getClassLoader().getResourceAsStream(resource)) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    private static ApiException notFound(String name) {
        return new ApiException(ErrorCode.NOT_FOUND, "The console has no file " + name);
    }
}
