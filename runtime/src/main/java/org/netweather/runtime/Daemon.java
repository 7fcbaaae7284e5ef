package org.netweather.runtime;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.Registration;
import org.netweather.client.FailoverChannel;
import org.netweather.runtime.metrics.MetricsEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a NetWeather daemon starts and stops. A daemon's setup opens what it needs through
 * this (each thing owned, to be closed in reverse order), serves its gRPC services with health,
 * reflection and RPC metrics, and registers with the nameserver with renewal; if any step fails,
 * everything opened so far is closed before the error propagates.
 *
 * <pre>{@code
 * return Daemon.start("forecaster", builder, channels, daemon -> {
 *   ScheduledExecutorService scheduler = daemon.scheduler("forecaster-sched", 2);
 *   ManagedChannel ns = daemon.channel(props.nameserver);
 *   Thing thing = daemon.own(new Thing(ns, scheduler));
 *   daemon.serve(List.of(new ForecasterService(thing)));
 *   daemon.register(ns, daemon.registration("forecaster", host, host).build(), ttl, scheduler);
 *   return new ForecasterServer(daemon, thing);
 * });
 * }</pre>
 *
 * <p>Shutdown ({@link #close}), in order: health enters its terminal state, the server refuses new
 * calls, unary calls in flight get a grace period, every call still open (streams at once) is
 * cancelled, and then everything owned is closed, last opened first (so the registration goes
 * before the channel it uses, and executors stop after the components that schedule on them). A
 * failure to close one thing is logged and the rest are still closed.
 */
public final class Daemon implements AutoCloseable {
  /** Registration attribute: {@code host:port} of the daemon's metrics endpoint. */
  public static final String METRICS = "metrics";

  /** Registration attribute: the {@code daemon} label of the daemon's samples there. */
  public static final String METRICS_DAEMON = "metrics_daemon";

  private static final Logger log = LoggerFactory.getLogger(Daemon.class);
  static final Duration GRACE = Duration.ofSeconds(5);

  /** A daemon's own setup, run by {@link #start}. */
  @FunctionalInterface
  public interface Setup<T> {
    T build(Daemon daemon) throws IOException;
  }

  private final String name;
  private final ServerBuilder<?> builder;
  private final Function<String, ManagedChannel> channels;
  private final List<AutoCloseable> owned = new ArrayList<>();
  private DaemonServer server;
  private boolean closed;

  private Daemon(String name, ServerBuilder<?> builder, Function<String, ManagedChannel> channels) {
    this.name = name;
    this.builder = builder;
    this.channels = channels;
  }

  /**
   * Runs {@code setup} for a daemon called {@code name} (the metrics label); if it throws, closes
   * what it had opened and rethrows.
   *
   * @param builder the server's builder; tests pass an in-process one
   * @param channels opens channels to peers; tests pass in-process ones
   */
  public static <T> T start(
      String name,
      ServerBuilder<?> builder,
      Function<String, ManagedChannel> channels,
      Setup<T> setup)
      throws IOException {
    Daemon daemon = new Daemon(name, builder, channels);
    try {
      return setup.build(daemon);
    } catch (IOException | RuntimeException | Error e) {
      daemon.close();
      throw e;
    }
  }

  /** As {@link #start(String, ServerBuilder, Function, Setup)}, with plaintext channels. */
  public static <T> T start(String name, ServerBuilder<?> builder, Setup<T> setup)
      throws IOException {
    return start(name, builder, Channels::plaintext, setup);
  }

  /** The configured host name, or this machine's when none is configured. */
  public static String host(String configured) {
    return configured == null || configured.isEmpty() ? Addresses.localHostName() : configured;
  }

  /** The configured address to advertise, or {@code host} when none is configured. */
  public static String advertise(String configured, String host) {
    return configured == null || configured.isEmpty() ? host : configured;
  }

  public String name() {
    return name;
  }

  /** Takes {@code resource} to close on shutdown, after everything owned after it. */
  public synchronized <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }

  /** A pool of daemon threads named {@code threadPrefix-N}, stopped on shutdown. */
  public ScheduledExecutorService scheduler(String threadPrefix, int threads) {
    ScheduledExecutorService s =
        Executors.newScheduledThreadPool(threads, new NamedThreadFactory(threadPrefix));
    own(
        new Owned(
            "executor " + threadPrefix,
            () -> {
              s.shutdownNow();
              s.awaitTermination(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }));
    return s;
  }

  /**
   * A channel to a peer at {@code address}, shut down on shutdown. A list {@code a:8090,b:8090}
   * (the nameservers of a site sharing a ZooKeeper registry) gives a {@link FailoverChannel}: calls
   * move to the next address when one ends UNAVAILABLE or DEADLINE_EXCEEDED.
   */
  public ManagedChannel channel(String address) {
    ManagedChannel ch = FailoverChannel.open(address, channels);
    own(new Owned("channel to " + address, ch::shutdownNow));
    return ch;
  }

  /** The channel factory itself, for components that open and close channels of their own. */
  public Function<String, ManagedChannel> channels() {
    return channels;
  }

  /**
   * Builds and starts the gRPC server with {@code services} plus health, reflection and RPC
   * metrics.
   *
   * @return the bound port
   */
  public synchronized int serve(List<BindableService> services) throws IOException {
    if (server != null) {
      throw new IllegalStateException(name + " is already serving");
    }
    server = new DaemonServer(name, builder, services);
    server.start();
    return server.getPort();
  }

  /**
   * What every daemon registers: name {@code kind@host}, the kind, address {@code advertise:port}
   * and attribute {@code host}; callers add their own. When this process serves its metrics, also
   * {@code metrics} ({@code advertise:port} of the endpoint) and {@code metrics_daemon} (the value
   * of the {@code daemon} label its samples carry), so {@code nws status} can read its damage
   * counts and clock offset.
   */
  public Registration.Builder registration(String kind, String host, String advertise) {
    Registration.Builder b =
        Registration.newBuilder()
            .setName(kind + "@" + host)
            .setKind(kind)
            .setAddress(advertise + ":" + port())
            .putAttributes("host", host);
    int metrics = MetricsEndpoint.defaultPort();
    if (metrics >= 0) {
      b.putAttributes(METRICS, advertise + ":" + metrics).putAttributes(METRICS_DAEMON, name);
    }
    return b;
  }

  /**
   * Registers with the nameserver and keeps the lease renewed on {@code scheduler}; on shutdown the
   * registration is removed, unless {@code unregisterOnClose} is false.
   */
  public Registrar register(
      ManagedChannel nameserver,
      Registration registration,
      Duration ttl,
      ScheduledExecutorService scheduler,
      boolean unregisterOnClose) {
    Registrar r = own(new Registrar(nameserver, registration, ttl, scheduler, unregisterOnClose));
    r.start();
    return r;
  }

  /** The server's bound port (0 in process); the server must be serving. */
  public synchronized int port() {
    if (server == null) {
      throw new IllegalStateException(name + " is not serving yet");
    }
    return server.getPort();
  }

  public void awaitTermination() throws InterruptedException {
    DaemonServer s;
    synchronized (this) {
      s = server;
    }
    if (s != null) {
      s.awaitTermination();
    }
  }

  @Override
  public void close() {
    close(GRACE);
  }

  /** As {@link #close()}, with {@code grace} for unary calls in flight. */
  void close(Duration grace) {
    List<AutoCloseable> toClose;
    DaemonServer s;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toClose = new ArrayList<>(owned);
      s = server;
    }
    if (s != null) {
      s.stop(grace);
    }
    for (int i = toClose.size() - 1; i >= 0; i--) {
      try {
        toClose.get(i).close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        log.warn("{}: closing {} failed", name, toClose.get(i), e);
      }
    }
  }

  /** A close action with a name for the log. */
  private record Owned(String what, AutoCloseable action) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      action.close();
    }

    @Override
    public String toString() {
      return what;
    }
  }
}
