package org.netweather.cli;

import io.grpc.ChannelCredentials;
import io.grpc.TlsChannelCredentials;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import org.netweather.client.FailoverChannel;
import org.netweather.client.NetWeatherClient;
import org.netweather.client.NetWeatherClientBuilder;
import org.netweather.runtime.Addresses;
import picocli.CommandLine.Option;

/** How a command finds NetWeather: the nameserver address and a deadline for every call. */
public final class ConnectionOptions {
  /**
   * Environment variable naming the nameserver, {@code host:port}, or several separated by commas
   * (nameservers side by side on a ZooKeeper registry), tried in order.
   */
  public static final String ENV = "NWS_NAMESERVER";

  public static final String TLS_CERT = "NWS_TLS_CERT";
  public static final String TLS_KEY = "NWS_TLS_KEY";
  public static final String TLS_CA = "NWS_TLS_CA";

  @Option(
      names = "--nameserver",
      paramLabel = "HOST:PORT[,HOST:PORT...]",
      description =
          "Nameserver address, or several separated by commas to fail over in order (default: $"
              + ENV
              + " or localhost:8090).")
  String nameserver;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description = "Deadline for each call (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  /**
   * The nameserver address (or comma-separated list) in effect.
   *
   * @throws IllegalArgumentException naming the option or variable if an entry is not host:port
   */
  public String nameserver() {
    if (nameserver != null && !nameserver.isEmpty()) {
      return checked("--nameserver", nameserver);
    }
    String env = System.getenv(ENV);
    return env != null && !env.isEmpty() ? checked("$" + ENV, env) : "localhost:8090";
  }

  /** {@code list} if every entry is {@code host:port}; else says which is not and where from. */
  static String checked(String from, String list) {
    try {
      for (String a : FailoverChannel.addresses(list)) {
        Addresses.parse("nameserver", a);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          from + " '" + list + "': " + e.getMessage() + " (want HOST:PORT[,HOST:PORT...])");
    }
    return list;
  }

  /** Whether calls go without TLS: no certificate is named in the environment. */
  public boolean plaintext() {
    String cert = System.getenv(TLS_CERT);
    return cert == null || cert.isEmpty();
  }

  public Duration deadline() {
    return Duration.ofSeconds(Math.max(1, timeoutSeconds));
  }

  /**
   * A client that owns its channels; closing it closes them all. On a secured site the environment
   * names this user's certificate, key and the site's CA ({@value #TLS_CERT}, {@value #TLS_KEY},
   * {@value #TLS_CA}): every call is then mutual TLS.
   */
  public NetWeatherClient open() {
    NetWeatherClientBuilder b = NetWeatherClient.forAddress(nameserver()).deadline(deadline());
    String cert = System.getenv(TLS_CERT);
    if (cert != null && !cert.isEmpty()) {
      b.credentials(tls(cert, System.getenv(TLS_KEY), System.getenv(TLS_CA)));
    }
    return b.build();
  }

  private static ChannelCredentials tls(String cert, String key, String ca) {
    if (key == null || key.isEmpty() || ca == null || ca.isEmpty()) {
      throw new IllegalArgumentException(
          TLS_CERT + " is set: " + TLS_KEY + " and " + TLS_CA + " must be set too");
    }
    try {
      return TlsChannelCredentials.newBuilder()
          .keyManager(new File(cert), new File(key))
          .trustManager(new File(ca))
          .build();
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the TLS files named by "
              + TLS_CERT
              + ", "
              + TLS_KEY
              + ", "
              + TLS_CA
              + ": "
              + e.getMessage());
    }
  }
}
