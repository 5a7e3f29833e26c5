package org.agentplatform.infra.adapter.file;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The built-in object store: files under {@code <data-dir>/objects}, uploaded and downloaded through this
 * service's {@code /storage/v1/objects/{key}} with HMAC-signed, expiring URLs.
 */
final class LocalObjectStore implements ObjectStore {

    static final String NAME = "local";
    static final String PATH = "/storage/v1/objects/";

    private final Path root;
    private final UrlSigner signer;

    LocalObjectStore(Path root, UrlSigner signer) {
        this.root = root;
        this.signer = signer;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Presigned presignPut(String key, String contentType, long length, Instant expires, URI serviceUrl) {
        long epoch = expires.getEpochSecond();
        return new Presigned(url(serviceUrl, key, epoch, signer.sign("PUT", key, epoch, contentType, length)),
                Map.of("Content-Type", contentType));
    }

    @Override
    public String presignGet(String key, String contentType, String filename, Instant expires, URI serviceUrl) {
        long epoch = expires.getEpochSecond();
        return url(serviceUrl, key, epoch, signer.sign("GET", key, epoch, null, 0));
    }

    boolean verifyPut(String key, long expires, String signature, String contentType, long length) {
        return signer.verify(signature, "PUT", key, expires, contentType, length);
    }

    boolean verifyGet(String key, long expires, String signature) {
        return signer.verify(signature, "GET", key, expires, null, 0);
    }

    @Override
    public Optional<ObjectDigest> digest(String key) {
        Path file = path(key);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (DigestInputStream in = new DigestInputStream(Files.newInputStream(file), sha256())) {
            long size = in.transferTo(OutputStream.nullOutputStream());
            return Optional.of(new ObjectDigest(size, HexFormat.of().formatHex(in.getMessageDigest().digest())));
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    @Override
    public InputStream open(String key) throws IOException {
        return Files.newInputStream(path(key));
    }

    /** A fresh temporary file beside the objects, for an upload in progress. */
    Path temporary() throws IOException {
        Files.createDirectories(root);
        return Files.createTempFile(root, "upload-", ".part");
    }

    /** Moves a finished upload into place (atomically: readers see all of it or nothing). */
    @Override
    public void delete(String key) throws IOException {
        Files.deleteIfExists(path(key));
    }

    void install(Path upload, String key) throws IOException {
        Path target = path(key);
        Files.createDirectories(target.getParent());
        Files.move(upload, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    Path path(String key) {
        return root.resolve(key.substring(0, 2)).resolve(key);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static String url(URI serviceUrl, String key, long expires, String signature) {
        return UriComponentsBuilder.fromUri(serviceUrl).path(PATH).path(key)
                .queryParam("expires", expires)
                .queryParam("signature", signature)
                .build().toUriString();
    }
}
