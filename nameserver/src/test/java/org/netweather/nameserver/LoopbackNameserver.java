package org.netweather.nameserver;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;

/**
 * A nameserver on a loopback port in a process of its own, for {@link HeartbeatLoadHarness}: prints
 * {@code PORT n}, serves until its standard input closes.
 */
public final class LoopbackNameserver {
  private LoopbackNameserver() {}

  public static void main(String[] args) throws Exception {
    NameserverProperties p =
        NameserverProperties.defaults()
            .with(NameserverProperties.PORT, 0)
            .with(NameserverProperties.METRICS_PORT, -1)
            .with(NameserverProperties.DATA_DIR, args[0]);
    p = p.with(NameserverProperties.MAX_WATCHES_PER_CALLER, p.maxWatches);
    try (NameserverServer ns = NameserverServer.start(p, NettyServerBuilder.forPort(0))) {
      System.out.println("PORT " + ns.getPort());
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the harness closes our input
      }
    }
  }
}
