package org.netweather.runtime.tls;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.runtime.Channels;
import org.netweather.runtime.NamedThreadFactory;

/**
 * The server a daemon listens with and the channels it opens: plaintext, or mutual TLS from its
 * {@link TlsFiles} (reloaded on one small thread of its own). One object per daemon process; close
 * it after the daemon.
 */
public final class DaemonTransport implements AutoCloseable {
  /** Calls one connection may have open at once on a daemon's server. */
  public static final int MAX_CALLS_PER_CONNECTION = 1024;

  /** Quiet time on a connection after which a daemon's server pings its peer. */
  public static final Duration KEEPALIVE = Duration.ofMinutes(5);

  /** How long a daemon's server waits for the answer to its ping. */
  public static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(20);

  private final TlsCredentials tls; // null: plaintext
  private final ScheduledExecutorService reloader;
  // The servers' event loops: owned here because a server whose listening channel is our own must
  // be given its loops too. Created with the first server.
  private EventLoopGroup boss;
  private EventLoopGroup workers;

  private DaemonTransport(TlsCredentials tls, ScheduledExecutorService reloader) {
    this.tls = tls;
    this.reloader = reloader;
  }

  /**
   * Plaintext when {@code files} is null, else mutual TLS.
   *
   * @throws IOException or GeneralSecurityException if the files are not a usable certificate, key
   *     and CA bundle
   */
  public static DaemonTransport of(TlsFiles files) throws IOException, GeneralSecurityException {
    if (files == null) {
      return new DaemonTransport(null, null);
    }
    ScheduledExecutorService reloader =
        Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("tls-reload"));
    try {
      return new DaemonTransport(new TlsCredentials(files, reloader), reloader);
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      reloader.shutdownNow();
      throw e;
    }
  }

  public boolean secured() {
    return tls != null;
  }

  /**
   * A server on {@code port} of every interface, or of {@code bind} when not empty, with the
   * {@linkplain ConnectionLimits#defaults() default connection limits}; see {@link #server(String,
   * int, ConnectionLimits)}.
   */
  public NettyServerBuilder server(String bind, int port) {
    return server(bind, port, ConnectionLimits.defaults());
  }

  /**
   * A server on {@code port} of every interface, or of {@code bind} when not empty, with the bounds
   * every daemon's server has:
   *
   * <ul>
   *   <li>at most {@link ConnectionLimits#maxConnections} connections, and {@link
   *       ConnectionLimits#maxConnectionsPerAddress} from one IP address; a connection beyond
   *       either is closed as soon as it is accepted ({@link ConnectionGate}), so a caller holding
   *       thousands of idle connections cannot take the descriptors the daemon's store and its
   *       other callers need;
   *   <li>a new connection that has not finished its TLS handshake and sent the HTTP/2 preface
   *       within {@link ConnectionLimits#handshakeTimeout} is closed;
   *   <li>a connection that resets more than {@link ConnectionLimits#maxResetsPerWindow} streams
   *       per {@link ConnectionLimits#resetWindow} is closed (HTTP/2 rapid reset);
   *   <li>at most {@link #MAX_CALLS_PER_CONNECTION} calls open on one connection (HTTP/2's
   *       concurrent-stream setting: a client's further calls wait in its own transport), so one
   *       connection cannot make a daemon hold unbounded call state; a sensor needs a handful, a
   *       program multiplexing many sensors over one connection a few per sensor;
   *   <li>a ping after {@link #KEEPALIVE} without traffic, and the connection dropped if it is not
   *       answered within {@link #KEEPALIVE_TIMEOUT}, so the streams of a host that vanished
   *       (powered off, cable pulled: no FIN ever comes) are let go in minutes, not hours.
   * </ul>
   */
  public synchronized NettyServerBuilder server(String bind, int port, ConnectionLimits limits) {
    InetSocketAddress at =
        bind.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(bind, port);
    NettyServerBuilder b =
        tls == null
            ? NettyServerBuilder.forAddress(at)
            : NettyServerBuilder.forAddress(at, tls.server());
    if (boss == null) {
      boss = acceptLoop();
      workers = ioLoops();
    }
    return bound(b, limits, boss, workers);
  }

  /**
   * {@code builder} with the bounds of {@link #server(String, int, ConnectionLimits)}, for a server
   * built outside a transport ({@code nws up}, every daemon in one process). Its event loops are
   * shared by every such server of the process and live as long as it does.
   */
  public static NettyServerBuilder bounded(NettyServerBuilder builder, ConnectionLimits limits) {
    return bound(builder, limits, SharedLoops.BOSS, SharedLoops.WORKERS);
  }

  /** Created on first use only. */
  private static final class SharedLoops {
    static final EventLoopGroup BOSS = acceptLoop();
    static final EventLoopGroup WORKERS = ioLoops();
  }

  private static EventLoopGroup acceptLoop() {
    return new MultiThreadIoEventLoopGroup(
        1, new DefaultThreadFactory("grpc-accept", true), NioIoHandler.newFactory());
  }

  private static EventLoopGroup ioLoops() {
    return new MultiThreadIoEventLoopGroup(
        0, new DefaultThreadFactory("grpc-io", true), NioIoHandler.newFactory());
  }

  private static NettyServerBuilder bound(
      NettyServerBuilder b, ConnectionLimits limits, EventLoopGroup boss, EventLoopGroup workers) {
    ConnectionGate gate = new ConnectionGate(limits);
    return b.bossEventLoopGroup(boss)
        .workerEventLoopGroup(workers)
        .channelFactory(
            () -> {
              NioServerSocketChannel listening = new NioServerSocketChannel();
              // First in the listening channel's pipeline: it sees each accepted connection before
              // gRPC's acceptor sets it up.
              listening.pipeline().addFirst(gate);
              return listening;
            })
        .handshakeTimeout(limits.handshakeTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .maxRstFramesPerWindow(limits.maxResetsPerWindow(), (int) limits.resetWindow().toSeconds())
        .maxConcurrentCallsPerConnection(MAX_CALLS_PER_CONNECTION)
        .keepAliveTime(KEEPALIVE.toSeconds(), TimeUnit.SECONDS)
        .keepAliveTimeout(KEEPALIVE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  /** The channels the daemon opens to others. */
  public Function<String, ManagedChannel> channels() {
    return tls == null ? Channels::plaintext : Channels.secured(tls.channel());
  }

  /** Closes the TLS reloader and the servers' event loops; close the servers first. */
  @Override
  public synchronized void close() throws IOException {
    if (tls != null) {
      tls.close();
      reloader.shutdownNow();
    }
    if (boss != null) {
      boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      boss = null;
      workers = null;
    }
  }
}
