package org.netweather.testing;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;

/**
 * Channels for daemons wired in-process: an in-process server advertises {@code NAME:0}, and a
 * daemon's channel factory given {@link #forAddress} reaches it by that name.
 */
public final class InProcessChannels {
  private InProcessChannels() {}

  /** A channel to the in-process server named by the host part of {@code host:port}. */
  public static ManagedChannel forAddress(String address) {
    return InProcessChannelBuilder.forName(address.substring(0, address.lastIndexOf(':'))).build();
  }
}
