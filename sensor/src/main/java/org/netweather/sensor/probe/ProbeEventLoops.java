package org.netweather.sensor.probe;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/** Creates the bounded, named event-loop group that probe servers and clients share. */
public final class ProbeEventLoops {

  private ProbeEventLoops() {}

  /**
   * A NIO group of {@code threads} daemon threads named {@code name-N}. The caller owns it and must
   * {@code shutdownGracefully()} it after closing every server and client using it.
   */
  public static EventLoopGroup create(String name, int threads) {
    return new MultiThreadIoEventLoopGroup(
        threads, new DefaultThreadFactory(name, true), NioIoHandler.newFactory());
  }
}
