package org.agentplatform.api.console;

import io.swagger.v3.oas.annotations.Hidden;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;

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

    /** Read once from the jar, with their entity tags: the files do not change while the service runs. */
    private final Map<String, Optional<File>> files = new ConcurrentHashMap<>();

    @GetMapping({"/console", "/console/", "/console/{*path}"})
    ResponseEntity<byte[]> page(ServerWebExchange exchange) {
        return answer(exchange, "index.html", "console/index.html");
    }

    @GetMapping("/console/assets/{name}")
    ResponseEntity<byte[]> asset(@PathVariable String name, ServerWebExchange exchange) {
        if (!ASSET.matcher(name).matches()) {
            throw notFound(name);
        }
        return answer(exchange, name, "console/assets/" + name);
    }

    @GetMapping("/console/vendor/xterm/{name}")
    ResponseEntity<byte[]> vendor(@PathVariable String name, ServerWebExchange exchange) {
        String resource = VENDOR.get(name);
        if (resource == null) {
            throw notFound(name);
        }
        return answer(exchange, name, resource);
    }

    /** The file, or 304 when the browser holds this version (each load revalidates: no-cache, so a new jar shows at once). */
    private ResponseEntity<byte[]> answer(ServerWebExchange exchange, String name, String resource) {
        File file = files.computeIfAbsent(resource, ConsoleRoutes::read).orElseThrow(() -> notFound(name));
        boolean held = exchange.checkNotModified(file.etag());
        ResponseEntity.BodyBuilder answer = (held ? ResponseEntity.status(HttpStatus.NOT_MODIFIED) : ResponseEntity.ok())
                .eTag(file.etag())
                .cacheControl(CacheControl.noCache())
                .header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .header("Referrer-Policy", "no-referrer")
                .header("X-Content-Type-Options", "nosniff");
        return held ? answer.build() : answer.contentType(TYPES.get(name.substring(name.lastIndexOf('.') + 1))).body(file.bytes());
    }

    private static Optional<File> read(String resource) {
        try (InputStream in = ConsoleRoutes.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            byte[] bytes = in.readAllBytes();
            String etag = "\"" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 16) + "\"";
            return Optional.of(new File(bytes, etag));
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private record File(byte[] bytes, String etag) {
    }

    private static ApiException notFound(String name) {
        return new ApiException(ErrorCode.NOT_FOUND, "The console has no file " + name);
    }
}
