package org.netweather.sensor.probe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;
import org.netweather.sensor.Ticker;

/**
 * Builds an accepted probe connection's pipeline.
 *
 * <pre>
 *   AllowListFilter -> IdleStateHandler -> ProbeHelloDecoder -> Closer
 *                                          (replaced by EchoHandler | SinkHandler | SourceHandler
 *                                           | PLogPHandler)
 * </pre>
 */
final class ProbeServerInitializer extends ChannelInitializer<SocketChannel> {

  private final AllowListFilter filter;
  private final ProbeServerOptions options;
  private final Ticker ticker;
  private final ChannelGroup open;

  ProbeServerInitializer(
      AllowListFilter filter, ProbeServerOptions options, Ticker ticker, ChannelGroup open) {
    this.filter = filter;
    this.options = options;
    this.ticker = ticker;
    this.open = open;
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    open.add(ch);
    ch.pipeline()
        .addLast("allow", filter)
        .addLast(
            "idle",
            new IdleStateHandler(0, 0, options.idleTimeout().toNanos(), TimeUnit.NANOSECONDS))
        .addLast("hello", new ProbeHelloDecoder(options, ticker))
        .addLast("closer", new Closer());
  }

  /** Last in the pipeline: closes idle connections and ones whose peer reset them, quietly. */
  static final class Closer extends ChannelInboundHandlerAdapter {

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof IdleStateEvent) {
        ctx.close();
      } else {
        ctx.fireUserEventTriggered(evt);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // Peers end trains with a reset on purpose; nothing here is worth more than closing.
      ctx.close();
    }
  }
}
