package org.netweather.cli;

import java.time.Duration;
import org.netweather.client.NetWeatherClient;
import picocli.CommandLine.Option;

/** How a command finds NetWeather: the nameserver address and a deadline for every call. */
public final class ConnectionOptions {
  /** Environment variable naming the nameserver, {@code host:port}. */
  public static final String ENV = "NWS_NAMESERVER";

  @Option(
      names = "--nameserver",
      paramLabel = "HOST:PORT",
      description = "Nameserver address (default: $" + ENV + " or localhost:8090).")
  String nameserver;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description = "Deadline for each call (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  /** The nameserver address in effect. */
  public String nameserver() {
    if (nameserver != null && !nameserver.isEmpty()) {
      return nameserver;
    }
    String env = System.getenv(ENV);
    return env != null && !env.isEmpty() ? env : "localhost:8090";
  }

  public Duration deadline() {
    return Duration.ofSeconds(Math.max(1, timeoutSeconds));
  }

  /** A client that owns its channels; closing it closes them all. */
  public NetWeatherClient open() {
    return NetWeatherClient.forAddress(nameserver()).deadline(deadline()).build();
  }
}
