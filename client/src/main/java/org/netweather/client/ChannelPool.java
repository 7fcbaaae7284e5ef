package org.netweather.client;

import io.grpc.ManagedChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** Channels to other daemons, one per address, opened on first use and owned until closed. */
final class ChannelPool implements AutoCloseable {
  private final Function<String, ManagedChannel> opener;
  private final Map<String, ManagedChannel> open = new ConcurrentHashMap<>();

  ChannelPool(Function<String, ManagedChannel> opener) {
    this.opener = opener;
  }

  ManagedChannel get(String address) {
    return open.computeIfAbsent(address, opener);
  }

  /** Lets every channel try to connect at once instead of waiting out its reconnect back-off. */
  void resetConnectBackoff() {
    for (ManagedChannel c : open.values()) {
      c.resetConnectBackoff();
    }
  }

  @Override
  public void close() {
    for (ManagedChannel c : open.values()) {
      c.shutdownNow();
    }
    for (ManagedChannel c : open.values()) {
      try {
        c.awaitTermination(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    open.clear();
  }
}
