package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.netweather.sensor.Ticker;

/**
 * Writes zero-filled payload to a channel at a bounded rate, up to a byte limit.
 *
 * <p>A token bucket refilled every tick: credit grows at the target rate and is capped at two
 * ticks' worth (at least one chunk), so a stall is not followed by a burst above the rate. With no
 * rate (0 or less) it writes whenever the channel is writable. The channel's write-buffer water
 * marks provide back-pressure either way.
 *
 * <p>Confined to the channel's event loop: call every method from it.
 */
final class PacedWriter {

  static final int CHUNK = 64 * 1024;
  private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
  private static final ByteBuf ZEROS =
      Unpooled.unreleasableBuffer(Unpooled.directBuffer(CHUNK).writeZero(CHUNK).asReadOnly());

  private final Channel channel;
  private final Ticker ticker;
  private final double bytesPerSecond;
  private final long limit;
  private final Runnable onDone;
  private long queued;
  private volatile long written;
  private double credit;
  private long lastRefill;
  private ScheduledFuture<?> tick;
  private boolean stopped;

  /**
   * @param bytesPerSecond target rate; 0 or less for as fast as possible
   * @param limit bytes to write in all
   * @param onDone run once when every byte up to the limit has been written
   */
  PacedWriter(Channel channel, Ticker ticker, double bytesPerSecond, long limit, Runnable onDone) {
    this.channel = channel;
    this.ticker = ticker;
    this.bytesPerSecond = bytesPerSecond;
    this.limit = limit;
    this.onDone = onDone;
  }

  /** {@code n} (at most {@link #CHUNK}) bytes of payload; a view of one shared buffer. */
  static ByteBuf payload(int n) {
    return ZEROS.slice(0, n);
  }

  void start() {
    lastRefill = ticker.nanoTime();
    if (paced()) {
      tick =
          channel
              .eventLoop()
              .scheduleAtFixedRate(this::pump, TICK_NANOS, TICK_NANOS, TimeUnit.NANOSECONDS);
    }
    pump();
  }

  /** Writes what the rate and the channel allow now; call when the channel becomes writable. */
  void pump() {
    if (stopped) {
      return;
    }
    if (paced()) {
      long now = ticker.nanoTime();
      double cap = Math.max(CHUNK, 2 * bytesPerSecond * TICK_NANOS / 1e9);
      credit = Math.min(cap, credit + bytesPerSecond * (now - lastRefill) / 1e9);
      lastRefill = now;
    }
    boolean wrote = false;
    while (queued < limit && channel.isWritable()) {
      long room = limit - queued;
      if (paced()) {
        room = Math.min(room, (long) credit);
      }
      int n = (int) Math.min(CHUNK, room);
      if (n <= 0) {
        break;
      }
      channel.write(payload(n)).addListener(countOnSuccess(n));
      queued += n;
      if (paced()) {
        credit -= n;
      }
      wrote = true;
    }
    if (wrote) {
      channel.flush();
    }
  }

  @SuppressWarnings("NonAtomicVolatileUpdate") // single writer, see below
  private ChannelFutureListener countOnSuccess(int n) {
    return f -> {
      if (!f.isSuccess()) {
        return;
      }
      // Only the event loop writes this field; volatile lets other threads read it.
      written += n;
      if (written >= limit && !stopped) {
        stop();
        onDone.run();
      }
    };
  }

  /** Stops writing; bytes already queued may still go out. */
  void stop() {
    stopped = true;
    if (tick != null) {
      tick.cancel(false);
    }
  }

  /** Payload bytes handed to the kernel so far. */
  long written() {
    return written;
  }

  private boolean paced() {
    return bytesPerSecond > 0;
  }
}
