package org.netweather.memoryhost;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.Registration;
import org.netweather.registry.Registry;
import org.netweather.registry.zookeeper.ZooKeeperRegistry;
import org.netweather.runtime.Addresses;
import org.netweather.runtime.Channels;
import org.netweather.runtime.Daemon;
import org.netweather.runtime.NamedThreadFactory;
import org.netweather.runtime.StreamLimits;

/**
 * The memory-host daemon: opens its store, serves it over gRPC, and keeps itself registered with
 * the nameserver as kind {@code memory}.
 *
 * <pre>{@code
 * try (MemoryHostServer m = MemoryHostServer.start(props, ServerBuilder.forPort(props.port))) {
 *   m.awaitTermination();
 * }
 * }</pre>
 */
public final class MemoryHostServer implements AutoCloseable {
  private static final String APPEND =
      org.netweather.api.v1.MemoryHostGrpc.getAppendMethod().getFullMethodName();
  private static final String APPEND_STREAM =
      org.netweather.api.v1.MemoryHostGrpc.getAppendStreamMethod().getFullMethodName();

  /** The registry group whose members the nameservers place shards on. */
  static final String MEMORY_GROUP = "memory";

  private final Daemon daemon;
  private final MeasurementStore store;

  private MemoryHostServer(Daemon daemon, MeasurementStore store) {
    this.daemon = daemon;
    this.store = store;
  }

  public static MemoryHostServer start(MemoryHostProperties props, ServerBuilder<?> builder)
      throws IOException {
    return start(props, builder, Channels::plaintext);
  }

  /**
   * As {@link #start(MemoryHostProperties, ServerBuilder)}, opening channels with {@code channels}.
   */
  public static MemoryHostServer start(
      MemoryHostProperties props,
      ServerBuilder<?> builder,
      Function<String, ManagedChannel> channels)
      throws IOException {
    Addresses.parse("nameserver", props.nameserver); // before anything is opened
    Clock clock = Clock.systemUTC();
    // Calls are short and never block on disk (appends wait on a future): two threads serve
    // them without the hand-off and thread churn of the default cached pool.
    ExecutorService rpc = Executors.newFixedThreadPool(2, new NamedThreadFactory("memory-rpc"));
    builder.executor(rpc);
    // Appends only validate and queue (the writer thread does the rest), so they run on the
    // transport thread that read them: one thread hand-off less per batch, which on a busy site is
    // a good part of an append's cost. Every other call may read the database: the pool runs it.
    builder.callExecutor(
        new ServerCallExecutorSupplier() {
          @Override
          public <ReqT, RespT> Executor getExecutor(
              ServerCall<ReqT, RespT> call, Metadata headers) {
            String method = call.getMethodDescriptor().getFullMethodName();
            return method.equals(APPEND) || method.equals(APPEND_STREAM) ? Runnable::run : null;
          }
        });
    return Daemon.start(
        "memory",
        builder,
        channels,
        daemon -> {
          daemon.own(
              () -> {
                rpc.shutdown();
                rpc.awaitTermination(5, TimeUnit.SECONDS);
              });
          // Watch delivery: a few threads suffice, each drain is short and never blocks.
          ExecutorService watchPool =
              Executors.newFixedThreadPool(2, new NamedThreadFactory("memory-watch"));
          daemon.own(
              () -> {
                watchPool.shutdown();
                watchPool.awaitTermination(5, TimeUnit.SECONDS);
              });
          MeasurementStore store =
              daemon.own(
                  MeasurementStore.open(
                      props.storeOptions(),
                      clock,
                      watchPool,
                      MemoryMetrics.forDaemon(daemon.name())));
          ScheduledExecutorService beat = daemon.scheduler("memory-registrar", 1);
          ManagedChannel ns = daemon.channel(props.nameserver);
          MemoryHostService service =
              new MemoryHostService(
                  store,
                  clock,
                  StreamLimits.watches("memory-host", props.maxWatches, props.maxWatchesPerCaller),
                  MemoryHostService.appendStreamLimits(
                      props.maxAppendStreams, props.maxAppendStreamsPerCaller));
          // Closed before the store: a scrape never reads a closed one.
          daemon.own(MemoryMetrics.gauges(daemon.name(), store, service));
          daemon.serve(List.of(service));
          String host = Daemon.host(props.host);
          Registration.Builder reg =
              daemon
                  .registration("memory", host, Daemon.advertise(props.advertise, host))
                  .putAttributes("started", Long.toString(clock.millis()));
          if (!props.name.isEmpty()) {
            reg.setName(props.name);
          }
          if (!props.cluster.isEmpty()) {
            reg.putAttributes("cluster", props.cluster);
          }
          Registration registration = reg.build();
          // Not unregistered on close: a restart within the TTL must not move this host's series.
          daemon.register(ns, registration, Duration.ofSeconds(props.ttlSeconds), beat, false);
          if (!props.registry.isLocal()) {
            // The shard placement's members: id = registration name, stable across restarts, so a
            // restart within the session timeout (or within placementReplaceAfter) moves nothing.
            Registry shared =
                daemon.own(ZooKeeperRegistry.open(props.registry, props.registryTls()));
            daemon.own(
                shared.join(
                    MEMORY_GROUP,
                    registration.getName(),
                    Map.of("address", registration.getAddress())));
          }
          return new MemoryHostServer(daemon, store);
        });
  }

  public int getPort() {
    return daemon.port();
  }

  public MeasurementStore store() {
    return store;
  }

  public void awaitTermination() throws InterruptedException {
    daemon.awaitTermination();
  }

  @Override
  public void close() {
    daemon.close();
  }
}
