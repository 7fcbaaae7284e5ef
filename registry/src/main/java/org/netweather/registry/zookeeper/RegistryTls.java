package org.netweather.registry.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.X509Util;

/**
 * TLS between a registry client and a ZooKeeper ensemble (or {@code nws zookeeper}'s secure port),
 * from the same PEM files as the site's mutual TLS: the daemon's certificate chain ({@code
 * tlsCert}), its PKCS#8 key ({@code tlsKey}) and the CA bundle ({@code tlsCa}).
 *
 * <p>ZooKeeper's TLS runs on Netty with the JDK's own TLS engine, so no native library is needed.
 * Its PEM key store is one file holding the key and the chain, so {@link #writeKeyStore} joins the
 * two into a file only the owner may read. Everything goes into a {@link ZKClientConfig} per
 * client, never into JVM-wide system properties, so one process may hold a plaintext and a TLS
 * registry side by side.
 *
 * @param cert certificate chain, PEM
 * @param key private key of {@code cert}, PKCS#8 PEM
 * @param ca CA certificates, PEM, that the other side's certificate must chain to
 */
public record RegistryTls(Path cert, Path key, Path ca) {
  /**
   * @throws IllegalArgumentException naming the file that is missing, unreadable or empty
   */
  public RegistryTls {
    check("tlsCert", cert);
    check("tlsKey", key);
    check("tlsCa", ca);
  }

  /**
   * The TLS of a daemon's settings: all three files, or none (empty when all three are blank).
   *
   * @throws IllegalArgumentException if only some are given, or one cannot be read
   */
  public static Optional<RegistryTls> of(String cert, String key, String ca) {
    boolean c = !blank(cert);
    boolean k = !blank(key);
    boolean a = !blank(ca);
    if (!c && !k && !a) {
      return Optional.empty();
    }
    if (!(c && k && a)) {
      List<String> missing = new ArrayList<>();
      if (!c) {
        missing.add("tlsCert");
      }
      if (!k) {
        missing.add("tlsKey");
      }
      if (!a) {
        missing.add("tlsCa");
      }
      throw new IllegalArgumentException(
          "TLS needs tlsCert, tlsKey and tlsCa together; missing " + String.join(", ", missing));
    }
    return Optional.of(
        new RegistryTls(Path.of(cert.trim()), Path.of(key.trim()), Path.of(ca.trim())));
  }

  /**
   * Writes the key followed by the certificate chain to {@code file}, readable by its owner only,
   * as ZooKeeper's PEM key store wants them; replaces what was there.
   */
  public Path writeKeyStore(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
    try {
      try {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // Not a POSIX file system: the directory's permissions are what protect the key.
      }
      String pem =
          withNewline(Files.readString(key, StandardCharsets.US_ASCII))
              + withNewline(Files.readString(cert, StandardCharsets.US_ASCII));
      Files.writeString(tmp, pem, StandardCharsets.US_ASCII);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return file;
  }

  /**
   * A client configuration that reaches the servers over TLS with the key store {@code keyStore}
   * (from {@link #writeKeyStore}) and this CA, checking that each server's certificate names the
   * host it is reached by.
   */
  ZKClientConfig clientConfig(Path keyStore) {
    ZKClientConfig config = new ZKClientConfig();
    config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
    config.setProperty(
        ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
    try (X509Util x509 = new ClientX509Util()) {
      config.setProperty(x509.getSslKeystoreLocationProperty(), keyStore.toString());
      config.setProperty(x509.getSslKeystoreTypeProperty(), "PEM");
      config.setProperty(x509.getSslTruststoreLocationProperty(), ca.toString());
      config.setProperty(x509.getSslTruststoreTypeProperty(), "PEM");
      config.setProperty(x509.getSslHostnameVerificationEnabledProperty(), "true");
    }
    return config;
  }

  private static void check(String setting, Path file) {
    if (file == null) {
      throw new IllegalArgumentException(setting + " is not set");
    }
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(setting + " " + file + ": no such file");
    }
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException(setting + " " + file + ": cannot be read");
    }
    try {
      String text = Files.readString(file, StandardCharsets.US_ASCII);
      if (!text.contains("-----BEGIN ")) {
        throw new IllegalArgumentException(setting + " " + file + ": not a PEM file");
      }
      if (setting.equals("tlsKey") && !text.contains("-----BEGIN PRIVATE KEY-----")) {
        throw new IllegalArgumentException(
            setting
                + " "
                + file
                + ": not a PKCS#8 key (BEGIN PRIVATE KEY); convert it with"
                + " openssl pkcs8 -topk8 -nocrypt");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(setting + " " + file + ": cannot be read: " + e, e);
    }
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  private static String withNewline(String s) {
    return s.endsWith("\n") ? s : s + "\n";
  }
}
