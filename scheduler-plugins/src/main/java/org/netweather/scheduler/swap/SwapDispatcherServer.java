package org.netweather.scheduler.swap;

import io.grpc.Server;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * Serves a {@link SwapDispatcher} over gRPC ({@link SwapDispatcherService}). The caller chooses the
 * transport and address through the builder; the dispatcher has no authentication, so callers bind
 * it to loopback.
 *
 * <pre>{@code
 * ServerBuilder<?> loopback = NettyServerBuilder.forAddress(
 *     new InetSocketAddress(InetAddress.getLoopbackAddress(), SwapDispatcher.DEFAULT_PORT));
 * try (SwapDispatcherServer s = SwapDispatcherServer.start(dispatcher, loopback)) {
 *   int port = s.getPort();
 * }
 * }</pre>
 */
public final class SwapDispatcherServer implements AutoCloseable {
  private final Server server;

  private SwapDispatcherServer(Server server) {
    this.server = server;
  }

  /** Adds the service to {@code builder}, builds and starts the server. */
  public static SwapDispatcherServer start(SwapDispatcher dispatcher, ServerBuilder<?> builder) {
    Server server = builder.addService(new SwapDispatcherService(dispatcher)).build();
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException("swap dispatcher: cannot start: " + e.getMessage(), e);
    }
    return new SwapDispatcherServer(server);
  }

  public int getPort() {
    return server.getPort();
  }

  @Override
  public void close() {
    server.shutdown();
    try {
      if (!server.awaitTermination(1, TimeUnit.SECONDS)) {
        server.shutdownNow();
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
