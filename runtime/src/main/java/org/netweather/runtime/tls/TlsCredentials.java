package org.netweather.runtime.tls;

import io.grpc.ChannelCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import io.grpc.util.CertificateUtils;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mutual-TLS credentials of one daemon, for its server and for the channels it opens, from {@link
 * TlsFiles}. Every refresh period it looks at the files' modification times and loads whatever
 * changed, so a renewed certificate and key (or CA bundle) dropped in place reach new connections
 * without a restart; files that do not load (half written, mismatched) leave the previous ones in
 * use. Peers are verified against the trusted CAs only, not by host name: who a peer is comes from
 * its certificate's subject alternative names (see {@code runtime.auth.CallerInterceptor}).
 *
 * <p>Close it to stop the reloading.
 */
public final class TlsCredentials implements Closeable {
  private static final Logger log = LoggerFactory.getLogger(TlsCredentials.class);

  private final TlsFiles files;
  private final AdvancedTlsX509KeyManager keys = new AdvancedTlsX509KeyManager();
  private final AdvancedTlsX509TrustManager trust;
  private final ScheduledFuture<?> reload;
  private long certTime;
  private long keyTime;
  private long caTime;

  /**
   * Reads the files now (failing if they are not a usable certificate, key and CA bundle) and looks
   * at them again every refresh period on {@code scheduler}.
   */
  public TlsCredentials(TlsFiles files, ScheduledExecutorService scheduler)
      throws IOException, GeneralSecurityException {
    this.files = files;
    trust =
        AdvancedTlsX509TrustManager.newBuilder()
            .setVerification(AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION)
            .build();
    certTime = mtime(files.certificate());
    keyTime = mtime(files.privateKey());
    caTime = mtime(files.trustedCas());
    loadIdentity();
    trust.updateTrustCredentials(files.trustedCas().toFile());
    long period = files.refresh().toMillis();
    reload = scheduler.scheduleWithFixedDelay(this::reload, period, period, TimeUnit.MILLISECONDS);
  }

  private synchronized void reload() {
    try {
      long cert = mtime(files.certificate());
      long key = mtime(files.privateKey());
      if (cert != certTime || key != keyTime) {
        loadIdentity();
        certTime = cert;
        keyTime = key;
        log.info("loaded the renewed certificate {}", files.certificate());
      }
      long ca = mtime(files.trustedCas());
      if (ca != caTime) {
        trust.updateTrustCredentials(files.trustedCas().toFile());
        caTime = ca;
        log.info("loaded the renewed CA bundle {}", files.trustedCas());
      }
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      // Perhaps caught mid-copy: the next look tries again, the old material stays in use.
      log.warn("TLS files did not load, keeping the previous ones: {}", e.toString());
    }
  }

  /**
   * Loads the certificate chain and key, only if the key belongs to the certificate: files replaced
   * one after the other are caught half way at times, and a mismatched pair fails every handshake.
   */
  private void loadIdentity() throws IOException, GeneralSecurityException {
    X509Certificate[] chain;
    PrivateKey key;
    try (InputStream c = Files.newInputStream(files.certificate());
        InputStream k = Files.newInputStream(files.privateKey())) {
      chain = CertificateUtils.getX509Certificates(c);
      key = CertificateUtils.getPrivateKey(k);
    }
    if (chain.length == 0) {
      throw new GeneralSecurityException(files.certificate() + " holds no certificate");
    }
    byte[] probe = "netweather".getBytes(StandardCharsets.US_ASCII);
    String algorithm = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
    Signature sign = Signature.getInstance(algorithm);
    sign.initSign(key);
    sign.update(probe);
    byte[] signature = sign.sign();
    Signature verify = Signature.getInstance(algorithm);
    verify.initVerify(chain[0].getPublicKey());
    verify.update(probe);
    if (!verify.verify(signature)) {
      throw new GeneralSecurityException(
          files.privateKey() + " is not the key of the certificate in " + files.certificate());
    }
    keys.updateIdentityCredentials(chain, key);
  }

  private static long mtime(Path p) throws IOException {
    return Files.getLastModifiedTime(p).toMillis();
  }

  /** For the daemon's server: every client must present a certificate from a trusted CA. */
  public ServerCredentials server() {
    return TlsServerCredentials.newBuilder()
        .keyManager(keys)
        .trustManager(trust)
        .clientAuth(
            files.anonymousReads()
                ? TlsServerCredentials.ClientAuth.OPTIONAL
                : TlsServerCredentials.ClientAuth.REQUIRE)
        .build();
  }

  /** For the channels the daemon opens: it presents its own certificate. */
  public ChannelCredentials channel() {
    return TlsChannelCredentials.newBuilder().keyManager(keys).trustManager(trust).build();
  }

  @Override
  public void close() {
    reload.cancel(false);
  }
}
