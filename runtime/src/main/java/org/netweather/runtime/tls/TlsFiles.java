package org.netweather.runtime.tls;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where a daemon's TLS material lives: its certificate chain and PKCS#8 private key (PEM), and the
 * CA bundle it trusts for its peers, read again every {@code refresh}; with {@code anonymousReads}
 * callers without a certificate are let in too (for reads only: see the authorization policy).
 */
public record TlsFiles(
    Path certificate, Path privateKey, Path trustedCas, Duration refresh, boolean anonymousReads) {
  /** How often a daemon reads its TLS files again. */
  public static final Duration REFRESH = Duration.ofMinutes(1);

  /** Files for a daemon that requires a certificate of every caller. */
  public TlsFiles(Path certificate, Path privateKey, Path trustedCas, Duration refresh) {
    this(certificate, privateKey, trustedCas, refresh, false);
  }

  public TlsFiles {
    if (refresh.isNegative() || refresh.isZero()) {
      throw new IllegalArgumentException("TLS refresh period must be positive: " + refresh);
    }
  }

  /**
   * The files named by three config values, or null for plaintext when all are empty.
   *
   * @throws IllegalArgumentException naming the key that is missing or whose file is unreadable
   */
  public static TlsFiles of(String cert, String key, String ca, Duration refresh) {
    return of(cert, key, ca, refresh, false);
  }

  /** As {@link #of(String, String, String, Duration)}, serving reads to uncertified callers. */
  public static TlsFiles of(
      String cert, String key, String ca, Duration refresh, boolean anonymousReads) {
    if (cert.isEmpty() && key.isEmpty() && ca.isEmpty()) {
      return null;
    }
    return new TlsFiles(
        readable("tlsCert", cert),
        readable("tlsKey", key),
        readable("tlsCa", ca),
        refresh,
        anonymousReads);
  }

  private static Path readable(String key, String file) {
    if (file.isEmpty()) {
      throw new IllegalArgumentException(
          key + " is empty; TLS needs tlsCert, tlsKey and tlsCa together");
    }
    Path p = Path.of(file);
    if (!Files.isReadable(p)) {
      throw new IllegalArgumentException(key + " names '" + file + "', which cannot be read");
    }
    return p;
  }
}
