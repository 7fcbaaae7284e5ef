package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.netweather.sensor.Ticker;

/**
 * The client's side of pLogP timings on a {@link ProbeMode#PLOGP} connection; each timing runs on
 * the event loop, so no thread hand-off is in it, and its future gets nanoseconds.
 *
 * <pre>
 * burst(n, m)        t0; DATA(m) × (n − 1), DATA_ACK(m), each written and flushed ──▶
 *                    ◀── DATA(0); t1                                    → t1 − t0
 * sendOverhead(m)    t0; DATA_ACK(m) written; t1 when all of it is in the kernel
 *                    ◀── DATA(0) (so the next timing finds an idle link)  → t1 − t0
 * receiveOverhead(m, d)   SEND(m) ──▶; wait d (not reading; the answer waits in the kernel)
 *                    t0; read ◀── DATA(m); t1 when its last byte is read  → t1 − t0
 * </pre>
 *
 * <p>The channel runs with auto-read off: it reads only while a timing expects an answer, which is
 * what lets the receive overhead be timed as a receive call. One timing at a time.
 */
final class PLogPClientHandler extends ChannelInboundHandlerAdapter {
  private final Ticker ticker;
  private final PLogPFrame.Reader reader = new PLogPFrame.Reader();
  private ChannelHandlerContext ctx;
  private CompletableFuture<Long> pending;
  private boolean reading;
  private long start;
  private long sendDone = -1;
  private boolean helloSent;
  private final int helloBytes;
  private long bytes;

  PLogPClientHandler(Ticker ticker) {
    this(ticker, ProbeHello.LENGTH);
  }

  PLogPClientHandler(Ticker ticker, int helloBytes) {
    this.helloBytes = helloBytes;
    this.ticker = ticker;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    ctx.channel().config().setAutoRead(false);
    if (ctx.channel().isActive()) {
      sendHello();
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    sendHello();
    ctx.fireChannelActive();
  }

  private void sendHello() {
    if (!helloSent) {
      helloSent = true;
      bytes += helloBytes;
      ctx.writeAndFlush(ProbeHello.plogp().encode(ctx.alloc()), ctx.voidPromise());
    }
  }

  /** Bytes written and read so far, hello included. Read it on the event loop or after. */
  long bytes() {
    return bytes;
  }

  CompletableFuture<Long> burst(int count, int length) {
    return run(
        () -> {
          ByteBuf data = PLogPFrame.encode(ctx.alloc(), PLogPFrame.DATA, length);
          ByteBuf last = PLogPFrame.encode(ctx.alloc(), PLogPFrame.DATA_ACK, length);
          bytes += count * PLogPFrame.wireBytes(PLogPFrame.DATA, length) + PLogPFrame.HEADER;
          expectAnswer();
          start = ticker.nanoTime();
          for (int i = 1; i < count; i++) {
            ctx.writeAndFlush(data.retainedDuplicate(), ctx.voidPromise());
          }
          data.release();
          ctx.writeAndFlush(last, ctx.voidPromise());
        });
  }

  CompletableFuture<Long> sendOverhead(int length) {
    return run(
        () -> {
          ByteBuf message = PLogPFrame.encode(ctx.alloc(), PLogPFrame.DATA_ACK, length);
          bytes += PLogPFrame.wireBytes(PLogPFrame.DATA_ACK, length) + PLogPFrame.HEADER;
          sendDone = -1;
          expectAnswer();
          ChannelPromise written = ctx.newPromise();
          written.addListener(f -> sendDone = ticker.nanoTime());
          start = ticker.nanoTime();
          ctx.writeAndFlush(message, written);
        });
  }

  CompletableFuture<Long> receiveOverhead(int length, long delayNanos) {
    return run(
        () -> {
          bytes += PLogPFrame.HEADER + PLogPFrame.wireBytes(PLogPFrame.DATA, length);
          ctx.writeAndFlush(
              PLogPFrame.encode(ctx.alloc(), PLogPFrame.SEND, length), ctx.voidPromise());
          ctx.executor()
              .schedule(
                  () -> {
                    if (pending != null) {
                      start = ticker.nanoTime();
                      expectAnswer();
                    }
                  },
                  delayNanos,
                  TimeUnit.NANOSECONDS);
        });
  }

  private CompletableFuture<Long> run(Runnable timing) {
    CompletableFuture<Long> result = new CompletableFuture<>();
    ctx.executor()
        .execute(
            () -> {
              if (pending != null) {
                result.completeExceptionally(
                    new IllegalStateException("a pLogP timing is running"));
              } else if (!ctx.channel().isActive()) {
                result.completeExceptionally(new ClosedChannelException());
              } else {
                pending = result;
                timing.run();
              }
            });
    return result;
  }

  private void expectAnswer() {
    reading = true;
    ctx.read();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (!(msg instanceof ByteBuf in)) {
        return;
      }
      while (in.isReadable()) {
        if (reader.feed(in) && pending != null) {
          long now = ticker.nanoTime();
          long end = sendDone >= 0 ? sendDone : now;
          sendDone = -1;
          reading = false;
          CompletableFuture<Long> result = pending;
          pending = null;
          result.complete(end - start);
        }
      }
    } catch (IllegalArgumentException e) {
      fail(new IOException(e.getMessage()));
      ctx.close();
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (reading) {
      ctx.read(); // the answer is not complete yet: one more read loop
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    fail(new ClosedChannelException());
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    fail(cause instanceof IOException ? cause : new IOException(cause));
    ctx.close();
  }

  private void fail(Throwable cause) {
    if (pending != null) {
      CompletableFuture<Long> result = pending;
      pending = null;
      reading = false;
      result.completeExceptionally(cause);
    }
  }
}
