package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.netweather.sensor.Ticker;

/**
 * Reads a connection's {@link ProbeHello}, then replaces itself with the handler of the mode it
 * names; bytes that arrived behind the hello pass on to that handler.
 *
 * <p>A connection that sends a malformed hello, or none within the hello time-out, is closed.
 * Connect-time probes send nothing and close on their own first.
 */
final class ProbeHelloDecoder extends ByteToMessageDecoder {

  private static final System.Logger LOG = System.getLogger(ProbeHelloDecoder.class.getName());

  private final ProbeServerOptions options;
  private final Ticker ticker;
  private ScheduledFuture<?> deadline;

  ProbeHelloDecoder(ProbeServerOptions options, Ticker ticker) {
    this.options = options;
    this.ticker = ticker;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    deadline =
        ctx.executor()
            .schedule(
                () -> {
                  ctx.close();
                },
                options.helloTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (deadline != null) {
      deadline.cancel(false);
    }
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.readableBytes() < ProbeHello.LENGTH) {
      return;
    }
    boolean sealed = in.getUnsignedByte(in.readerIndex() + 2) == ProbeKey.VERSION;
    if (sealed && in.readableBytes() < ProbeKey.SEALED_LENGTH) {
      return;
    }
    ProbeHello hello;
    try {
      ProbeKey key = options.key();
      if (key != null) {
        if (!sealed) {
          throw new IllegalArgumentException("unsealed probe hello; this server needs the key");
        }
        hello = key.open(in);
      } else if (sealed) {
        // A server without a key serves anyone its allow-list lets in; the seal changes nothing.
        hello = ProbeHello.decode(in, ProbeKey.VERSION);
        in.skipBytes(ProbeKey.SEALED_LENGTH - ProbeHello.LENGTH);
      } else {
        hello = ProbeHello.decode(in);
      }
    } catch (IllegalArgumentException e) {
      LOG.log(
          options.key() != null ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
          "refused probe hello from {0}: {1}",
          ctx.channel().remoteAddress(),
          e.getMessage());
      in.skipBytes(in.readableBytes());
      ctx.close();
      return;
    }
    ctx.pipeline().addAfter(ctx.name(), hello.mode().name(), handlerFor(hello));
    // Removing a ByteToMessageDecoder hands its leftover bytes to the next handler.
    ctx.pipeline().remove(this);
  }

  private ChannelHandler handlerFor(ProbeHello hello) {
    switch (hello.mode()) {
      case ECHO:
        return new EchoHandler();
      case SINK:
        long interval =
            hello.arg32() == 0
                ? 0
                : Math.max(options.minMarkInterval().toNanos(), hello.arg32() * 1_000L);
        return new SinkHandler(ticker, interval, options.maxSinkBytes());
      case SOURCE:
        long total = Math.min(hello.arg64(), options.maxSourceBytes());
        return new SourceHandler(ticker, hello.arg32() * 1024.0, total);
      case PLOGP:
        return new PLogPHandler(options.maxSinkBytes(), options.maxSourceBytes());
      default:
        throw new AssertionError(hello.mode());
    }
  }
}
