package org.netweather.sensor.probe;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.function.Predicate;
import org.netweather.sensor.Ticker;

/**
 * The sensor's probe listener: echoes for latency, accepts for connect time, sinks and sources
 * payload for bandwidth and interference experiments, for allowed peers only.
 *
 * <pre>{@code
 * EventLoopGroup loops = ProbeEventLoops.create("probe", 2);
 * ProbeServer server = new ProbeServer(loops,
 *     ProbeServerOptions.defaults(new InetSocketAddress(8061)),
 *     remote -> cliqueMembers.contains(remote.getAddress()), Ticker.system()).start();
 * ...
 * server.close();
 * loops.shutdownGracefully();
 * }</pre>
 *
 * <p>The server does not own the event-loop group; {@link #close()} closes its listener and every
 * connection it accepted.
 */
public final class ProbeServer implements AutoCloseable {

  private final EventLoopGroup group;
  private final ProbeServerOptions options;
  private final AllowListFilter filter;
  private final Ticker ticker;
  private final ChannelGroup open = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private Channel listener;

  /**
   * @param allowed decides, per connection, whether its remote address may use the server
   */
  public ProbeServer(
      EventLoopGroup group,
      ProbeServerOptions options,
      Predicate<? super InetSocketAddress> allowed,
      Ticker ticker) {
    this.group = group;
    this.options = options;
    this.filter = new AllowListFilter(allowed);
    this.ticker = ticker;
  }

  /** Binds the listener; returns this. */
  public synchronized ProbeServer start() throws IOException {
    if (listener != null) {
      throw new IllegalStateException("already started");
    }
    ServerBootstrap b =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 128)
            .childOption(ChannelOption.TCP_NODELAY, true)
            // Large reads that can drain a backlog at once keep sink marks on the arrival curve.
            .childOption(
                ChannelOption.RECVBUF_ALLOCATOR,
                new AdaptiveRecvByteBufAllocator(4 * 1024, 64 * 1024, 1024 * 1024)
                    .maxMessagesPerRead(64))
            .childHandler(new ProbeServerInitializer(filter, options, ticker, open));
    if (options.receiveBufferBytes() > 0) {
      // Set on the listener so the window scale negotiated in the handshake can use it.
      b.option(ChannelOption.SO_RCVBUF, options.receiveBufferBytes());
    }
    try {
      listener = b.bind(options.bind()).sync().channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while binding " + options.bind(), e);
    } catch (Exception e) {
      throw new IOException("cannot bind probe server to " + options.bind(), e);
    }
    open.add(listener);
    return this;
  }

  /** The bound address. */
  public synchronized InetSocketAddress address() {
    if (listener == null) {
      throw new IllegalStateException("not started");
    }
    return (InetSocketAddress) listener.localAddress();
  }

  /** The bound port, e.g. when started on port 0. */
  public int port() {
    return address().getPort();
  }

  @Override
  public synchronized void close() {
    open.close().awaitUninterruptibly();
    listener = null;
  }
}
