package org.netweather.runtime.tls;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import org.netweather.runtime.Channels;
import org.netweather.runtime.NamedThreadFactory;

/**
 * The server a daemon listens with and the channels it opens: plaintext, or mutual TLS from its
 * {@link TlsFiles} (reloaded on one small thread of its own). One object per daemon process; close
 * it after the daemon.
 */
public final class DaemonTransport implements AutoCloseable {
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

  /** A server on {@code port} of every interface, or of {@code bind} when not empty. */
  public NettyServerBuilder server(String bind, int port) {
    InetSocketAddress at =
        bind.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(bind, port);
    return tls == null
        ? NettyServerBuilder.forAddress(at)
        : NettyServerBuilder.forAddress(at, tls.server());
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
