package org.netweather.sensor.probe;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;

/** A running paced transfer with a peer; see {@link ProbeClient#startTransfer}. */
public final class ProbeTransfer implements AutoCloseable {

  private final Channel channel;
  private final TransferClientHandler handler;

  ProbeTransfer(Channel channel, TransferClientHandler handler) {
    this.channel = channel;
    this.handler = handler;
  }

  /** Payload bytes sent (handed to the kernel) or received so far. */
  public long bytes() {
    return handler.bytes();
  }

  /** Whether the connection is still open. */
  public boolean isOpen() {
    return channel.isActive();
  }

  /** Ends the transfer at once, dropping anything still queued (reset, not FIN). */
  @Override
  public void close() {
    channel
        .eventLoop()
        .execute(
            () -> {
              if (channel.isOpen()) {
                channel.config().setOption(ChannelOption.SO_LINGER, 0);
                channel.close();
              }
            });
  }
}
