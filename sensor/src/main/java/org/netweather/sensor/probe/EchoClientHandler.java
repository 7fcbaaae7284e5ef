package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import org.netweather.sensor.Ticker;

/**
 * The client's side of latency probes on an open echo connection: sends one byte, times its echo,
 * repeats.
 *
 * <pre>
 * client                          server (EchoHandler)
 *   | hello(ECHO), on connect        |
 *   |------------------------------->|
 *   | 0x01      t0 = now             |
 *   |------------------------------->|
 *   |                          0x01  |
 *   |<-------------------------------|  rtt = now - t0
 * </pre>
 *
 * <p>The original used a one-byte probe too (nws-original.md §1.5). Both timestamps are taken on
 * the event loop, so the round trip excludes hand-offs between threads. One run at a time.
 */
final class EchoClientHandler extends ChannelInboundHandlerAdapter {

  private final Ticker ticker;
  private ChannelHandlerContext ctx;
  private CompletableFuture<long[]> pending;
  private long[] rtts;
  private int done;
  private long sentAt;
  private boolean helloSent;

  EchoClientHandler(Ticker ticker) {
    this.ticker = ticker;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
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
      ctx.writeAndFlush(ProbeHello.echo().encode(ctx.alloc()), ctx.voidPromise());
    }
  }

  /** Times {@code count} sequential round trips; the future gets them in ns. */
  CompletableFuture<long[]> ping(int count) {
    CompletableFuture<long[]> result = new CompletableFuture<>();
    ctx.executor().execute(() -> start(count, result));
    return result;
  }

  private void start(int count, CompletableFuture<long[]> result) {
    if (pending != null) {
      result.completeExceptionally(new IllegalStateException("a latency probe is running"));
      return;
    }
    if (!ctx.channel().isActive()) {
      result.completeExceptionally(new ClosedChannelException());
      return;
    }
    pending = result;
    rtts = new long[count];
    done = 0;
    sendOne();
  }

  private void sendOne() {
    sentAt = ticker.nanoTime();
    ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}), ctx.voidPromise());
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    long now = ticker.nanoTime();
    int n = msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
    ReferenceCountUtil.release(msg);
    if (pending == null || n == 0) {
      return;
    }
    rtts[done++] = now - sentAt;
    if (done == rtts.length) {
      CompletableFuture<long[]> result = pending;
      pending = null;
      result.complete(rtts);
    } else {
      sendOne();
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
      CompletableFuture<long[]> result = pending;
      pending = null;
      result.completeExceptionally(cause);
    }
  }
}
