package org.agentplatform.infra.adapter.file;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.file.DownloadTicket;
import org.agentplatform.api.file.FileStore;
import org.agentplatform.api.file.SignedObjects;
import org.agentplatform.api.file.StoredFile;
import org.agentplatform.api.file.UploadTicket;
import org.agentplatform.infra.adapter.file.SkillArchives;
import org.agentplatform.infra.adapter.secret.ErasableContent;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.query.SqlTime;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Files: owner-scoped rows ({@code file_object}) over an {@link ObjectStore}. A file is pending until its
 * bytes are in the store, then confirmed with their size and sha256: at upload time for the built-in
 * store (which this class also serves), on first use for an S3-compatible one (read once to digest).
 */
final class PlatformFiles implements FileStore, SignedObjects, SkillArchives, ErasableContent {

    private static final String COLUMNS = "id, owner_id, store, object_key, content_type, declared_bytes, filename, status, size_bytes,"
            + " sha256, created_at";
    private static final int READ_BUFFER = 64 * 1024;

    private final JdbcTemplate jdbc;
    private final ObjectStore store;
    private final LocalObjectStore local;
    private final PlatformProperties.Files settings;
    /** File names are the owner's content: sealed in the row, opened when read. */
    private final PersonalContent content;
    private final Clock clock;

    /** A file's row. */
    private record Row(UUID id, OwnerId ownerId, String key, String contentType, long declaredBytes, String filename, String status,
            Long sizeBytes, String sha256, Instant createdAt) {

        boolean isConfirmed() {
            return "confirmed".equals(status);
        }

        StoredFile file() {
            return new StoredFile(id.toString(), ownerId, contentType, sizeBytes, sha256, filename, createdAt);
        }
    }

    PlatformFiles(JdbcTemplate jdbc, ObjectStore store, PlatformProperties.Files settings, PersonalContent content, Clock clock) {
        this.jdbc = jdbc;
        this.content = content;
        this.store = store;
        this.local = store instanceof LocalObjectStore builtIn ? builtIn : null;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public long maxBytes() {
        return settings.maxBytes();
    }

    @Override
    public Mono<UploadTicket> presignUpload(OwnerId owner, String contentType, long contentLength, String filename, URI serviceUrl) {
        return blocking(() -> {
            UUID id = UUID.randomUUID();
            String key = local != null ? id.toString() : "files/" + owner + "/" + id;
            Instant now = clock.instant();
            Instant expires = now.plus(settings.uploadTtl()).truncatedTo(ChronoUnit.SECONDS);
            jdbc.update("INSERT INTO file_object (id, owner_id, store, object_key, content_type, declared_bytes, filename, status,"
                            + " upload_expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
                    id, owner.value(), store.name(), key, contentType, contentLength, content.seal(owner, filename), SqlTime.of(expires),
                    SqlTime.of(now));
            ObjectStore.Presigned presigned = store.presignPut(key, contentType, contentLength, expires, serviceUrl);
            return new UploadTicket(id.toString(), presigned.url(), "PUT", presigned.headers(), expires);
        });
    }

    @Override
    public Mono<DownloadTicket> presignDownload(OwnerId owner, String fileId, URI serviceUrl) {
        return blocking(() -> confirmedRow(owner, fileId).map(row -> {
            Instant expires = clock.instant().plus(settings.downloadTtl()).truncatedTo(ChronoUnit.SECONDS);
            return new DownloadTicket(row.file(), store.presignGet(row.key(), row.contentType(), row.filename(), expires, serviceUrl),
                    expires);
        }).orElse(null));
    }

    @Override
    public Mono<StoredFile> confirmed(OwnerId owner, String fileId) {
        return blocking(() -> confirmedRow(owner, fileId).map(Row::file).orElse(null));
    }

    /** The owner's file, confirming it first when the store has its bytes (an upload straight to S3). */
    private Optional<Row> confirmedRow(OwnerId owner, String fileId) {
        Optional<Row> found = row(fileId).filter(row -> row.ownerId().equals(owner));
        if (found.isEmpty() || found.get().isConfirmed()) {
            return found;
        }
        Row pending = found.get();
        return store.digest(pending.key())
                .filter(digest -> digest.sizeBytes() == pending.declaredBytes())
                .flatMap(digest -> {
                    confirm(pending.id(), digest.sizeBytes(), digest.sha256());
                    return row(fileId).filter(Row::isConfirmed);
                });
    }

    @Override
    public Mono<StoredFile> receive(String fileId, String expires, String signature, MediaType contentType, long contentLength,
            Flux<DataBuffer> body) {
        return blocking(() -> {
            Row row = signedRow(fileId);
            long expiry = expiry(expires);
            if (!local.verifyPut(row.key(), expiry, signature, row.contentType(), row.declaredBytes())) {
                throw new ApiException(ErrorCode.FORBIDDEN, "This upload URL is not valid");
            }
            requireUnexpired(expiry);
            if (row.isConfirmed()) {
                throw new ApiException(ErrorCode.CONFLICT, "File " + fileId + " has been uploaded already; files are immutable");
            }
            if (!MediaType.parseMediaType(row.contentType()).equalsTypeAndSubtype(contentType)) {
                throw ApiException.invalidParam("Content-Type", "The upload URL was issued for " + row.contentType());
            }
            if (contentLength > row.declaredBytes()) {
                throw tooLong(row);
            }
            return row;
        }).flatMap(row -> write(row, body));
    }

    /** Streams the body to a temporary file, counting and hashing, then confirms the file and moves the bytes into place. */
    private Mono<StoredFile> write(Row row, Flux<DataBuffer> body) {
        MessageDigest digest = LocalObjectStore.sha256();
        AtomicLong count = new AtomicLong();
        return Mono.usingWhen(blocking(local::temporary), temporary -> {
            Flux<DataBuffer> checked = body.map(buffer -> {
                if (count.addAndGet(buffer.readableByteCount()) > row.declaredBytes()) {
                    DataBufferUtils.release(buffer);
                    throw tooLong(row);
                }
                try (DataBuffer.ByteBufferIterator views = buffer.readableByteBuffers()) {
                    views.forEachRemaining(digest::update);
                }
                return buffer;
            });
            return DataBufferUtils.write(checked, temporary).then(blocking(() -> {
                if (count.get() != row.declaredBytes()) {
                    throw ApiException.invalidParam("Content-Length", "The upload has " + count.get() + " bytes; its URL was issued for "
                            + row.declaredBytes());
                }
                String sha256 = HexFormat.of().formatHex(digest.digest());
                if (!confirm(row.id(), count.get(), sha256)) {
                    throw new ApiException(ErrorCode.CONFLICT, "File " + row.id() + " has been uploaded already; files are immutable");
                }
                try {
                    local.install(temporary, row.key());
                } catch (IOException failure) {
                    jdbc.update("UPDATE file_object SET status = 'pending', size_bytes = NULL, sha256 = NULL, confirmed_at = NULL"
                            + " WHERE id = ?", row.id());
                    throw new UncheckedIOException(failure);
                }
                return new StoredFile(row.id().toString(), row.ownerId(), row.contentType(), count.get(), sha256, row.filename(),
                        row.createdAt());
            }));
        }, temporary -> blocking(() -> Files.deleteIfExists(temporary)).then());
    }

    @Override
    public Mono<Download> serve(String fileId, String expires, String signature) {
        return blocking(() -> {
            Row row = signedRow(fileId);
            long expiry = expiry(expires);
            if (!local.verifyGet(row.key(), expiry, signature)) {
                throw new ApiException(ErrorCode.FORBIDDEN, "This download URL is not valid");
            }
            requireUnexpired(expiry);
            if (!row.isConfirmed()) {
                throw ApiException.notFound("File " + fileId + " has not been uploaded");
            }
            Path path = local.path(row.key());
            return new Download(row.file(), DataBufferUtils.read(path, DefaultDataBufferFactory.sharedInstance, READ_BUFFER));
        });
    }

    @Override
    public InputStream open(UUID fileId) throws IOException {
        Row row = row(fileId.toString()).filter(Row::isConfirmed)
                .orElseThrow(() -> new IOException("No confirmed file " + fileId));
        return store.open(row.key());
    }

    /** The bytes from the store first, then the rows: a download of one is 404 from then on. */
    @Override
    public int erase(OwnerId owner) throws IOException {
        List<String> keys = jdbc.queryForList("SELECT object_key FROM file_object WHERE owner_id = ?", String.class, owner.value());
        for (String key : keys) {
            store.delete(key);
        }
        jdbc.update("DELETE FROM file_object WHERE owner_id = ?", owner.value());
        return keys.size();
    }

    private boolean confirm(UUID id, long size, String sha256) {
        return jdbc.update("UPDATE file_object SET status = 'confirmed', size_bytes = ?, sha256 = ?, confirmed_at = ? WHERE id = ?"
                + " AND status = 'pending'", size, sha256, SqlTime.of(clock.instant()), id) == 1;
    }

    /** The row a presigned URL names: only the built-in store serves URLs of its own. */
    private Row signedRow(String fileId) {
        if (local == null) {
            throw ApiException.notFound("This service does not store files itself");
        }
        return row(fileId).orElseThrow(() -> ApiException.notFound("No file " + fileId));
    }

    private Optional<Row> row(String fileId) {
        UUID id;
        try {
            id = UUID.fromString(fileId);
        } catch (IllegalArgumentException notAFileId) {
            return Optional.empty();
        }
        List<Row> rows = jdbc.query("SELECT " + COLUMNS + " FROM file_object WHERE id = ?", (result, index) -> row(result), id);
        return rows.stream().findFirst();
    }

    private Row row(ResultSet result) throws SQLException {
        OwnerId owner = new OwnerId(result.getObject("owner_id", UUID.class));
        return new Row(result.getObject("id", UUID.class), owner,
                result.getString("object_key"), result.getString("content_type"), result.getLong("declared_bytes"),
                content.open(owner, result.getString("filename")), result.getString("status"), result.getObject("size_bytes", Long.class),
                result.getString("sha256"),
                result.getObject("created_at", OffsetDateTime.class).toInstant());
    }

    private static long expiry(String expires) {
        try {
            return Long.parseLong(expires);
        } catch (NumberFormatException | NullPointerException malformed) {
            throw new ApiException(ErrorCode.FORBIDDEN, "This URL is not valid");
        }
    }

    private void requireUnexpired(long expiry) {
        if (clock.instant().getEpochSecond() > expiry) {
            throw new ApiException(ErrorCode.FORBIDDEN, "This URL has expired; ask for a new one");
        }
    }

    private static ApiException tooLong(Row row) {
        return new ApiException(ErrorCode.PAYLOAD_TOO_LARGE, "The upload is longer than the " + row.declaredBytes()
                + " bytes its URL was issued for");
    }

    private static <T> Mono<T> blocking(Callable<T> work) {
        return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
    }
}
