package org.netweather.runtime;

import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.function.Function;

/**
 * How daemons open channels to each other. Daemons take a {@code Function<String, ManagedChannel>}
 * so tests can pass in-process channels; {@link #plaintext} is used on a trusted network and {@link
 * #secured} when the daemon has TLS files.
 */
public final class Channels {
  private Channels() {}

  /** A plaintext channel to {@code host:port}, as every daemon on a trusted network uses. */
  public static ManagedChannel plaintext(String address) {
    return NettyChannelBuilder.forTarget(address).usePlaintext().build();
  }

  /** Channels that present the daemon's certificate and check the peer's (mutual TLS). */
  public static Function<String, ManagedChannel> secured(ChannelCredentials credentials) {
    return address -> NettyChannelBuilder.forTarget(address, credentials).build();
  }
}
