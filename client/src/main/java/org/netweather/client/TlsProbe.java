package org.netweather.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Whether an address speaks TLS: it opens a connection, starts a handshake and sees whether a
 * certificate comes back. Nothing is trusted or sent beyond the hello; the handshake is abandoned
 * (a daemon that requires client certificates refuses it anyway), so this serves only to explain a
 * failure, never to talk to the daemon.
 */
final class TlsProbe {
  private TlsProbe() {}

  static boolean speaksTls(String address, Duration timeout) {
    int colon = address.lastIndexOf(':');
    if (colon <= 0) {
      return false;
    }
    String host = address.substring(0, colon);
    int port;
    try {
      port = Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      return false;
    }
    AtomicBoolean certificateSeen = new AtomicBoolean();
    try (Socket raw = new Socket()) {
      raw.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
      raw.setSoTimeout((int) timeout.toMillis());
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, new TrustManager[] {new Recording(certificateSeen)}, null);
      try (SSLSocket tls =
          (SSLSocket) ctx.getSocketFactory().createSocket(raw, host, port, false)) {
        tls.startHandshake();
      }
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      // Expected for most daemons (no client certificate here): what matters is what came back.
    }
    return certificateSeen.get();
  }

  /** Trusts nothing; only notes that the server presented a certificate. */
  private static final class Recording implements X509TrustManager {
    private final AtomicBoolean seen;

    Recording(AtomicBoolean seen) {
      this.seen = seen;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
      throw new UnsupportedOperationException("a probe is never a server");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws java.security.cert.CertificateException {
      seen.set(chain.length > 0);
      throw new java.security.cert.CertificateException("probe only");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
