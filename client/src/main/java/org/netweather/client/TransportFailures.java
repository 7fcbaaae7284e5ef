package org.netweather.client;

import io.grpc.Status;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * Says in one line why a call could not reach a daemon, naming TLS when TLS is the reason. gRPC
 * reports most of these as {@code UNAVAILABLE: io exception} with the real reason several causes
 * deep, or, for a plaintext client refused by a TLS daemon, as "Network closed for unknown reason"
 * with no cause at all; an operator cannot act on either.
 *
 * <p>The four TLS cases, and what each looks like underneath:
 *
 * <ul>
 *   <li>a plaintext client against a TLS daemon: the daemon closes the connection without a word.
 *       Only a look at the address ({@link TlsProbe}) tells this from a daemon that crashed, so the
 *       caller passes whether it dialled in plaintext;
 *   <li>a TLS client against a plaintext daemon: Netty's {@code NotSslRecordException};
 *   <li>a certificate from a CA the client does not trust: a PKIX path-building failure;
 *   <li>a certificate for other names than the one dialled: a {@code CertificateException} whose
 *       message lists the certificate's subject alternative names.
 * </ul>
 */
public final class TransportFailures {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
  private static final Pattern DIALLED = Pattern.compile("matching (?:IP address )?(\\S+) found");
  private static final Pattern NAMES = Pattern.compile("subjectAlternativeNames=\\[([^\\]]*)\\]");
  private static final Pattern ALERT =
      Pattern.compile("(?i)alert[^:]*:?\\s*([a-z_ ]*certificate[a-z_ ]*)");

  private TransportFailures() {}

  /**
   * One line for a failed call to {@code address}: the TLS problem when there is one, else gRPC's
   * status with its innermost cause.
   *
   * @param address the {@code host:port} dialled, or empty when unknown
   * @param plaintext whether the call went without TLS; only then is the address probed for TLS
   */
  public static String describe(Status status, String address, boolean plaintext) {
    String at = address == null || address.isEmpty() ? "the daemon" : address;
    String tls = tlsProblem(status.getCause(), at);
    if (tls != null) {
      return tls;
    }
    if (plaintext
        && status.getCode() == Status.Code.UNAVAILABLE
        && closedDuringSetup(status)
        && address != null
        && !address.isEmpty()
        && TlsProbe.speaksTls(address, PROBE_TIMEOUT)) {
      return "TLS required: "
          + at
          + " speaks TLS and closed this plaintext connection; give this client a certificate,"
          + " key and the site's CA (see docs/security.md)";
    }
    return plain(status);
  }

  /**
   * As {@link #describe(Status, String, boolean)} for a TLS client, or when the address is not
   * known.
   */
  public static String describe(Status status) {
    return describe(status, "", false);
  }

  /** The TLS problem among the causes of a failure, or null if TLS is not the reason. */
  static String tlsProblem(Throwable failure, String at) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String name = t.getClass().getSimpleName();
      String message = String.valueOf(t.getMessage());
      if (name.equals("NotSslRecordException") || message.contains("not an SSL/TLS record")) {
        return "TLS handshake failed: "
            + at
            + " answered in plaintext, not TLS; this client uses TLS, so either the daemon was"
            + " started without its TLS settings or the site is not secured";
      }
      if (t instanceof CertificateExpiredException
          || t instanceof CertificateNotYetValidException) {
        return "TLS handshake failed: a certificate is outside its validity period ("
            + message
            + "); renew it (nws certs issue)";
      }
      Matcher names = NAMES.matcher(message);
      Matcher dialled = DIALLED.matcher(message);
      if (message.contains("No subject alternative") && dialled.find()) {
        return "TLS host-name mismatch: the certificate of "
            + at
            + " is for "
            + (names.find() ? certificateNames(names.group(1)) : "other names")
            + ", not for '"
            + dialled.group(1)
            + "', the name dialled; dial one of the certificate's names, or issue the daemon a"
            + " certificate that includes '"
            + dialled.group(1)
            + "' (nws certs issue --host)";
      }
      if (message.contains("unable to find valid certification path")
          || message.contains("PKIX path")) {
        return "TLS handshake failed: the certificate of "
            + at
            + " is not signed by a CA this client trusts; is the CA file the site's CA, and was"
            + " the daemon's certificate issued by it?";
      }
      Matcher alert = ALERT.matcher(message);
      if (t instanceof SSLException && alert.find()) {
        return "TLS handshake failed: "
            + at
            + " refused this client's certificate ("
            + alert.group(1).strip().toLowerCase(Locale.ROOT)
            + "); is it issued by the site's CA, and still valid?";
      }
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SSLException) {
        return "TLS handshake with " + at + " failed: " + innermost(t).getMessage();
      }
    }
    return null;
  }

  /** "DNS:alpha, IP:127.0.0.1, URI:urn:..." as "alpha, 127.0.0.1": the names one can dial. */
  private static String certificateNames(String sans) {
    List<String> out = new ArrayList<>();
    for (String san : Pattern.compile(",\\s*").splitAsStream(sans).toList()) {
      if (san.startsWith("DNS:") || san.startsWith("IP:")) {
        out.add(san.substring(san.indexOf(':') + 1));
      }
    }
    return out.isEmpty() ? "no host name" : String.join(", ", out);
  }

  /** What a daemon that refuses plaintext does: it closes (or resets) the fresh connection. */
  private static boolean closedDuringSetup(Status status) {
    if (status.getCause() == null) {
      return "Network closed for unknown reason".equals(status.getDescription());
    }
    for (Throwable t = status.getCause(); t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      if (message.contains("Connection reset") || message.contains("Network closed")) {
        return true;
      }
    }
    return false;
  }

  private static String plain(Status status) {
    String what =
        status.getDescription() == null
            ? ""
            : status.getDescription().lines().findFirst().orElse("");
    Throwable cause = status.getCause();
    if (cause == null) {
      return status.getCode() + (what.isEmpty() ? "" : ": " + what);
    }
    Throwable inner = innermost(cause);
    String why =
        inner instanceof UnknownHostException
            ? "unknown host " + inner.getMessage()
            : inner instanceof ConnectException && inner.getMessage() == null
                ? "connection refused"
                : String.valueOf(inner.getMessage());
    return status.getCode() + (what.isEmpty() ? "" : ": " + what) + " (" + why + ")";
  }

  private static Throwable innermost(Throwable t) {
    Throwable inner = t;
    while (inner.getCause() != null && inner.getCause() != inner) {
      inner = inner.getCause();
    }
    return inner;
  }
}
