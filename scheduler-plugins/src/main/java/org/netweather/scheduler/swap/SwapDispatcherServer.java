package org.netweather.scheduler.swap;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Serves a {@link SwapDispatcher} over TCP on loopback: one request line per connection, the
 * reply lines, then {@code END}. Four connection threads at most: requests are tiny and tools
 * are few.
 *
 * <pre>{@code
 * try (SwapDispatcherServer s = SwapDispatcherServer.start(dispatcher, 0)) {
 *   int port = s.getPort();
 * }
 * }</pre>
 */
public final class SwapDispatcherServer implements AutoCloseable {
  private final ServerSocket socket;
  private final ExecutorService pool;
  private final SwapDispatcher dispatcher;

  private SwapDispatcherServer(SwapDispatcher dispatcher, ServerSocket socket) {
    this.dispatcher = dispatcher;
    this.socket = socket;
    this.pool = Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "swap-dispatcher");
      t.setDaemon(true);
      return t;
    });
  }

  /** Binds loopback at {@code port} (0 = any free port) and starts accepting. */
  public static SwapDispatcherServer start(SwapDispatcher dispatcher, int port) {
    try {
      ServerSocket s = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
      SwapDispatcherServer server = new SwapDispatcherServer(dispatcher, s);
      server.pool.execute(server::accept);
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("swap dispatcher: cannot bind port " + port, e);
    }
  }

  public int getPort() {
    return socket.getLocalPort();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket c = socket.accept();
        pool.execute(() -> serve(c));
      } catch (IOException e) {
        return;   // closed
      }
    }
  }

  private void serve(Socket c) {
    try (c; BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(),
        StandardCharsets.UTF_8)); PrintWriter out = new PrintWriter(c.getOutputStream(), true,
        StandardCharsets.UTF_8)) {
      c.setSoTimeout(5000);
      String line = in.readLine();
      if (line != null) {
        dispatcher.handle(line).forEach(out::println);
      }
      out.println("END");
    } catch (IOException e) {
      // A tool that hangs up early loses only its own reply.
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
    pool.shutdownNow();
    try {
      pool.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
