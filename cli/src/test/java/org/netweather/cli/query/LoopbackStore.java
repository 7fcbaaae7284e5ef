package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.nio.file.Path;
import java.util.List;
import org.netweather.api.v1.Measurement;
import org.netweather.client.NetWeatherClient;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;

/**
 * A nameserver and one registered memory-host on loopback, with a client: what the series commands
 * need to store, list and delete series for real.
 */
final class LoopbackStore implements AutoCloseable {
  final NameserverServer nameserver;
  final MemoryHostServer memory;
  final NetWeatherClient client;
  final String target;

  private LoopbackStore(
      NameserverServer nameserver, MemoryHostServer memory, NetWeatherClient client) {
    this.nameserver = nameserver;
    this.memory = memory;
    this.client = client;
    this.target = "localhost:" + nameserver.getPort();
  }

  /** Starts both under {@code dir} and returns once the memory-host is registered. */
  static LoopbackStore start(Path dir) throws Exception {
    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.HOST, "localhost")
            .with(NameserverProperties.METRICS_PORT, -1);
    NameserverServer ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(0));
    MemoryHostServer memory = null;
    NetWeatherClient client = null;
    try {
      String target = "localhost:" + ns.getPort();
      MemoryHostProperties mp =
          MemoryHostProperties.defaults()
              .with(MemoryHostProperties.DATA_DIR, dir.resolve("mem").toString())
              .with(MemoryHostProperties.HOST, "localhost")
              .with(MemoryHostProperties.NAMESERVER, target)
              .with(MemoryHostProperties.METRICS_PORT, -1);
      memory = MemoryHostServer.start(mp, NettyServerBuilder.forPort(0));
      client = NetWeatherClient.forAddress(target).build();
      long deadline = System.currentTimeMillis() + 10_000;
      while (client.search("(kind=memory)").isEmpty()) {
        assertTrue(System.currentTimeMillis() < deadline, "memory-host never registered");
        Thread.sleep(50);
      }
      return new LoopbackStore(ns, memory, client);
    } catch (Exception | Error e) {
      if (client != null) {
        client.close();
      }
      if (memory != null) {
        memory.close();
      }
      ns.close();
      throw e;
    }
  }

  /** One measurement a second old, as a sensor would have sent it. */
  static List<Measurement> aSecondAgo() {
    return List.of(
        Measurement.newBuilder()
            .setTimestampMs(System.currentTimeMillis() - 1_000)
            .setValue(1)
            .build());
  }

  @Override
  public void close() throws Exception {
    client.close();
    memory.close();
    nameserver.close();
  }
}
