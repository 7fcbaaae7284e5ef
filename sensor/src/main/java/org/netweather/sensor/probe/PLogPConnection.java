package org.netweather.sensor.probe;

import io.netty.channel.Channel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An open {@link ProbeMode#PLOGP} connection to one peer: the timings pLogP measurement needs (see
 * {@link PLogPClientHandler} for what each one times), each completing with nanoseconds or failing
 * with an {@link java.io.IOException} or a time-out. One timing at a time; close it when done.
 * Obtained from {@link ProbeClient#plogp}.
 */
public final class PLogPConnection implements AutoCloseable {
  private final Channel channel;
  private final PLogPClientHandler handler;
  private final long timeoutNanos;

  PLogPConnection(Channel channel, PLogPClientHandler handler, long timeoutNanos) {
    this.channel = channel;
    this.handler = handler;
    this.timeoutNanos = timeoutNanos;
  }

  /** {@code count} messages of {@code bytes} back to back, until the peer's empty answer. */
  public CompletableFuture<Long> burst(int count, int bytes) {
    if (count < 1) {
      throw new IllegalArgumentException("burst of " + count + " messages");
    }
    return limit(handler.burst(count, bytes));
  }

  /** The send of {@code bytes}, until all of them are in the kernel. */
  public CompletableFuture<Long> sendOverhead(int bytes) {
    return limit(handler.sendOverhead(bytes));
  }

  /** The receive of {@code bytes} the peer sent, started {@code delayNanos} after asking. */
  public CompletableFuture<Long> receiveOverhead(int bytes, long delayNanos) {
    return limit(handler.receiveOverhead(bytes, delayNanos));
  }

  /** Bytes this connection has put on the network, both ways, so far. */
  public long bytes() {
    return channel.eventLoop().submit(handler::bytes).syncUninterruptibly().getNow();
  }

  private CompletableFuture<Long> limit(CompletableFuture<Long> timing) {
    return timing
        .orTimeout(timeoutNanos, TimeUnit.NANOSECONDS)
        .whenComplete(
            (t, e) -> {
              if (e != null) {
                channel.close(); // a late answer would be taken for the next timing's
              }
            });
  }

  @Override
  public void close() {
    channel.close();
  }
}
