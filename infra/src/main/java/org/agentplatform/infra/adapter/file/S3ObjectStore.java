package org.agentplatform.infra.adapter.file;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.DigestInputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.agentplatform.infra.platform.PlatformProperties;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.GetObjectPresignRequest;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;
import software.amazon.awssdk.services.s3.presigner.model.PutObjectPresignRequest;

/**
 * An S3-compatible object store (AWS S3, or any server speaking its API): SigV4-presigned PUT URLs that
 * fix the content type and length, presigned GET URLs, and the digest computed by reading the object once.
 */
final class S3ObjectStore implements ObjectStore, AutoCloseable {

    static final String NAME = "s3";

    private final S3Client client;
    private final S3Presigner presigner;
    private final String bucket;
    private final Clock clock;

    S3ObjectStore(PlatformProperties.S3 settings, Clock clock) {
        if (settings.bucket() == null || settings.bucket().isBlank()) {
            throw new IllegalStateException("agent-platform.files.s3.bucket is required when agent-platform.files.store is s3");
        }
        Region region = Region.of(settings.region());
        AwsCredentialsProvider credentials = settings.accessKey() == null || settings.accessKey().isBlank()
                ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(settings.accessKey(), settings.secretKey()));
        S3Configuration addressing = S3Configuration.builder().pathStyleAccessEnabled(settings.pathStyle()).build();
        var clientBuilder = S3Client.builder().region(region).credentialsProvider(credentials).serviceConfiguration(addressing)
                .httpClientBuilder(UrlConnectionHttpClient.builder());
        var presignerBuilder = S3Presigner.builder().region(region).credentialsProvider(credentials).serviceConfiguration(addressing);
        if (settings.endpoint() != null && !settings.endpoint().isBlank()) {
            clientBuilder.endpointOverride(URI.create(settings.endpoint()));
            presignerBuilder.endpointOverride(URI.create(settings.endpoint()));
        }
        this.client = clientBuilder.build();
        this.presigner = presignerBuilder.build();
        this.bucket = settings.bucket();
        this.clock = clock;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Presigned presignPut(String key, String contentType, long length, Instant expires, URI serviceUrl) {
        PresignedPutObjectRequest presigned = presigner.presignPutObject(PutObjectPresignRequest.builder()
                .signatureDuration(validFor(expires))
                .putObjectRequest(PutObjectRequest.builder().bucket(bucket).key(key).contentType(contentType).contentLength(length).build())
                .build());
        Map<String, String> headers = new LinkedHashMap<>();
        presigned.signedHeaders().forEach((name, values) -> {
            if (!"host".equalsIgnoreCase(name)) {
                headers.put(canonical(name), String.join(",", values));
            }
        });
        return new Presigned(presigned.url().toString(), headers);
    }

    @Override
    public String presignGet(String key, String contentType, String filename, Instant expires, URI serviceUrl) {
        GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(bucket).key(key).responseContentType(contentType);
        if (filename != null) {
            request.responseContentDisposition("attachment; filename=\"" + filename.replace("\"", "") + "\"");
        }
        return presigner.presignGetObject(GetObjectPresignRequest.builder().signatureDuration(validFor(expires))
                .getObjectRequest(request.build()).build()).url().toString();
    }

    @Override
    public Optional<ObjectDigest> digest(String key) {
        try (ResponseInputStream<GetObjectResponse> object = client.getObject(GetObjectRequest.builder().bucket(bucket).key(key).build());
                DigestInputStream in = new DigestInputStream(object, LocalObjectStore.sha256())) {
            long size = in.transferTo(OutputStream.nullOutputStream());
            return Optional.of(new ObjectDigest(size, HexFormat.of().formatHex(in.getMessageDigest().digest())));
        } catch (NoSuchKeyException absent) {
            return Optional.empty();
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    @Override
    public InputStream open(String key) {
        return client.getObject(GetObjectRequest.builder().bucket(bucket).key(key).build());
    }

    @Override
    public void delete(String key) {
        client.deleteObject(DeleteObjectRequest.builder().bucket(bucket).key(key).build());
    }

    @Override
    public void close() {
        presigner.close();
        client.close();
    }

    private Duration validFor(Instant expires) {
        Duration left = Duration.between(clock.instant(), expires);
        return left.isNegative() || left.isZero() ? Duration.ofSeconds(1) : left;
    }

    /** {@code content-type} -> {@code Content-Type}, as callers usually write headers. */
    private static String canonical(String header) {
        return String.join("-", List.of(header.split("-")).stream()
                .map(part -> part.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1))
                .toList());
    }
}
