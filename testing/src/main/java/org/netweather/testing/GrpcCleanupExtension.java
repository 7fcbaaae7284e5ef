package org.netweather.testing;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Registers gRPC servers and channels for shutdown after each test, newest first.
 *
 * <pre>{@code
 * @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
 * ManagedChannel channel = grpc.inProcess(new NameserverService(...));
 * }</pre>
 */
public final class GrpcCleanupExtension implements AfterEachCallback {
  private final Deque<Object> resources = new ArrayDeque<>();

  /** A fresh in-process server name. */
  public static String newName() {
    return InProcessServerBuilder.generateName();
  }

  /** An in-process server builder with a fresh name and a direct executor. */
  public static ServerBuilder<?> serverBuilder(String name) {
    return InProcessServerBuilder.forName(name).directExecutor();
  }

  /** Starts an in-process server with {@code services} and returns a channel to it. */
  public ManagedChannel inProcess(BindableService... services) throws IOException {
    String name = newName();
    InProcessServerBuilder b = InProcessServerBuilder.forName(name).directExecutor();
    for (BindableService s : services) {
      b.addService(s);
    }
    register(b.build().start());
    return channel(name);
  }

  /** A channel to the in-process server {@code name}, closed after the test. */
  public ManagedChannel channel(String name) {
    return register(InProcessChannelBuilder.forName(name).directExecutor().build());
  }

  public <T extends ManagedChannel> T register(T channel) {
    resources.push(channel);
    return channel;
  }

  public <T extends Server> T register(T server) {
    resources.push(server);
    return server;
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    while (!resources.isEmpty()) {
      Object r = resources.pop();
      if (r instanceof ManagedChannel c) {
        c.shutdownNow();
        c.awaitTermination(5, TimeUnit.SECONDS);
      } else {
        Server s = (Server) r;
        s.shutdownNow();
        s.awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }
}
