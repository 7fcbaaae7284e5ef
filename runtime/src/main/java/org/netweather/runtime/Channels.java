package org.netweather.runtime;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/**
 * How daemons open channels to each other. Daemons take a {@code Function<String, ManagedChannel>}
 * so tests can pass in-process channels; {@link #plaintext} is the one used in production (and
 * where TLS will plug in).
 */
public final class Channels {
  private Channels() {}

  /** A plaintext channel to {@code host:port}, as every daemon on a trusted network uses. */
  public static ManagedChannel plaintext(String address) {
    return NettyChannelBuilder.forTarget(address).usePlaintext().build();
  }
}
