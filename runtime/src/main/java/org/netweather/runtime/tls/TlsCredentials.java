package org.netweather.runtime.tls;

import io.grpc.ChannelCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import java.io.Closeable;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Mutual-TLS credentials of one daemon, for its server and for the channels it opens, from {@link
 * TlsFiles} that grpc's reloading key and trust managers read again on their refresh period. Peers
 * are verified against the trusted CAs only (not by host name): who a peer is comes from its
 * certificate's subject alternative names (see {@code runtime.auth.CallerInterceptor}).
 *
 * <p>Close it to stop the reloading.
 */
public final class TlsCredentials implements Closeable {
  private final AdvancedTlsX509KeyManager keys = new AdvancedTlsX509KeyManager();
  private final AdvancedTlsX509TrustManager trust;
  private final List<Closeable> reloads = new ArrayList<>();

  /**
   * Reads the files now (failing if they are not a usable certificate, key and CA bundle) and again
   * every refresh period on {@code scheduler}.
   */
  public TlsCredentials(TlsFiles files, ScheduledExecutorService scheduler)
      throws IOException, GeneralSecurityException {
    trust =
        AdvancedTlsX509TrustManager.newBuilder()
            .setVerification(AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION)
            .build();
    long period = files.refresh().toMillis();
    reloads.add(
        keys.updateIdentityCredentials(
            files.certificate().toFile(),
            files.privateKey().toFile(),
            period,
            TimeUnit.MILLISECONDS,
            scheduler));
    reloads.add(
        trust.updateTrustCredentials(
            files.trustedCas().toFile(), period, TimeUnit.MILLISECONDS, scheduler));
  }

  /** For the daemon's server: every client must present a certificate from a trusted CA. */
  public ServerCredentials server() {
    return TlsServerCredentials.newBuilder()
        .keyManager(keys)
        .trustManager(trust)
        .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
        .build();
  }

  /** For the channels the daemon opens: it presents its own certificate. */
  public ChannelCredentials channel() {
    return TlsChannelCredentials.newBuilder().keyManager(keys).trustManager(trust).build();
  }

  @Override
  public void close() throws IOException {
    for (Closeable c : reloads) {
      c.close();
    }
  }
}
