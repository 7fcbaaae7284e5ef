package org.netweather.runtime.tls;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
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
   * A server on {@code port} of every interface, or of {@code bind} when not empty, with the bounds
   * every daemon's server has:
   *
   * <ul>
   *   <li>at most {@link #MAX_CALLS_PER_CONNECTION} calls open on one connection (HTTP/2's
   *       concurrent-stream setting: a client's further calls wait in its own transport), so one
   *       connection cannot make a daemon hold unbounded call state; a sensor needs a handful, a
   *       program multiplexing many sensors over one connection a few per sensor;
   *   <li>a ping after {@link #KEEPALIVE} without traffic, and the connection dropped if it is not
   *       answered within {@link #KEEPALIVE_TIMEOUT}, so the streams of a host that vanished
   *       (powered off, cable pulled: no FIN ever comes) are let go in minutes, not hours.
   * </ul>
   */
  public NettyServerBuilder server(String bind, int port) {
    InetSocketAddress at =
        bind.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(bind, port);
    NettyServerBuilder b =
        tls == null
            ? NettyServerBuilder.forAddress(at)
            : NettyServerBuilder.forAddress(at, tls.server());
    return b.maxConcurrentCallsPerConnection(MAX_CALLS_PER_CONNECTION)
        .keepAliveTime(KEEPALIVE.toSeconds(), TimeUnit.SECONDS)
        .keepAliveTimeout(KEEPALIVE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  /** The channels the daemon opens to others. */
  public Function<String, ManagedChannel> channels() {
    return tls == null ? Channels::plaintext : Channels.secured(tls.channel());
  }

  @Override
  public void close() throws IOException {
    if (tls != null) {
      tls.close();
      reloader.shutdownNow();
    }
  }
}
