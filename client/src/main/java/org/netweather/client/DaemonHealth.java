package org.netweather.client;

import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;

/**
 * What a daemon answered to a health check, and who it proved to be: over TLS, the identity its
 * certificate carries ({@code ROLE@HOST}, from the URI {@code urn:netweather:role:ROLE} and the
 * first DNS subject alternative name); over plaintext, nothing.
 *
 * @param identity {@code ROLE@HOST}, or empty over plaintext
 */
public record DaemonHealth(ServingStatus status, boolean tls, String identity) {
  private static final String ROLE_URI = "urn:netweather:role:";

  /** The identity {@code cert} proves, as NetWeather's daemons read it. */
  static String identityOf(X509Certificate cert) {
    String host = null;
    String role = "reader";
    Collection<List<?>> names;
    try {
      names = cert.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      names = null;
    }
    if (names != null) {
      for (List<?> san : names) {
        String value = String.valueOf(san.get(1));
        if ((Integer) san.get(0) == 2 && host == null) {
          host = value;
        } else if ((Integer) san.get(0) == 6 && value.startsWith(ROLE_URI)) {
          role = value.substring(ROLE_URI.length());
        }
      }
    }
    return role + "@" + (host != null ? host : cert.getSubjectX500Principal().getName());
  }
}
