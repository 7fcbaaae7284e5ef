package org.netweather.clients.cli;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import org.netweather.clients.NetWeatherClient;
import picocli.CommandLine.Option;

/** How a command finds NetWeather: the nameserver address and a deadline for every call. */
public final class ConnectionOptions {
  /** Environment variable naming the nameserver, {@code host:port}. */
  public static final String ENV = "NWS_NAMESERVER";

  @Option(names = "--nameserver", paramLabel = "HOST:PORT",
      description = "Nameserver address (default: $" + ENV + " or localhost:8090).")
  String nameserver;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
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

  /** Opens a channel to {@code address}. */
  public static ManagedChannel channel(String address) {
    return NettyChannelBuilder.forTarget(address).usePlaintext().build();
  }

  /** A client plus the nameserver channel it was given; closing closes both. */
  public Session open() {
    ManagedChannel ns = channel(nameserver());
    return new Session(ns, new NetWeatherClient(ns, deadline(), ConnectionOptions::channel),
        nameserver());
  }

  /** An open connection to NetWeather. */
  public static final class Session implements AutoCloseable {
    private final ManagedChannel nameserverChannel;
    private final NetWeatherClient client;
    private final String nameserver;

    Session(ManagedChannel nameserverChannel, NetWeatherClient client, String nameserver) {
      this.nameserverChannel = nameserverChannel;
      this.client = client;
      this.nameserver = nameserver;
    }

    public NetWeatherClient client() {
      return client;
    }

    public String nameserver() {
      return nameserver;
    }

    @Override
    public void close() {
      client.close();
      nameserverChannel.shutdownNow();
    }
  }
}
