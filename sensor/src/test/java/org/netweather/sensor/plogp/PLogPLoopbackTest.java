package org.netweather.sensor.plogp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.Reading;
import org.netweather.sensor.Ticker;
import org.netweather.sensor.probe.PLogPConnection;
import org.netweather.sensor.probe.ProbeClient;
import org.netweather.sensor.probe.ProbeClientOptions;
import org.netweather.sensor.probe.ProbeEventLoops;
import org.netweather.sensor.probe.ProbeServer;
import org.netweather.sensor.probe.ProbeServerOptions;

/**
 * The pLogP skill over real loopback sockets on port 0. Values are checked for sanity only
 * (loopback says nothing about a network); the measured parameters are printed.
 */
class PLogPLoopbackTest {
  private EventLoopGroup loops;
  private EventLoopGroup clientLoops;
  private ProbeServer server;
  private ProbeClient client;
  private ExecutorService executor;

  @BeforeEach
  void start() throws Exception {
    loops = ProbeEventLoops.create("plogp-test", 1);
    server =
        new ProbeServer(
                loops,
                ProbeServerOptions.defaults(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)),
                remote -> remote.getAddress().isLoopbackAddress(),
                Ticker.system())
            .start();
    // Loops of their own, as on two hosts: on a shared thread the server could not read a
    // burst until the client had written all of it.
    clientLoops = ProbeEventLoops.create("plogp-test-client", 1);
    client = new ProbeClient(clientLoops, ProbeClientOptions.defaults(), Ticker.system());
    executor = Executors.newSingleThreadExecutor();
  }

  @AfterEach
  void stop() {
    executor.shutdownNow();
    client.close();
    server.close();
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    clientLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void connection_eachTiming_positiveAndBytesCounted() throws Exception {
    try (PLogPConnection c = client.plogp(server.address()).get(5, TimeUnit.SECONDS)) {
      long burst = c.burst(100, 0).get(5, TimeUnit.SECONDS);
      long rtt = c.burst(1, 100_000).get(5, TimeUnit.SECONDS);
      long os = c.sendOverhead(1 << 20).get(5, TimeUnit.SECONDS);
      long or = c.receiveOverhead(1 << 20, 1_000_000).get(5, TimeUnit.SECONDS);

      assertTrue(burst > 0 && rtt > 0 && os > 0 && or > 0, burst + " " + rtt + " " + os + " " + or);
      assertTrue(c.bytes() > 2 * (1 << 20) + 100_000, "bytes " + c.bytes());
    }
  }

  @Test
  void skill_fullMeasurement_seriesForEverySizeOfTheGrid() throws Exception {
    PLogPSkill skill =
        new PLogPSkill(
            client,
            // A loose convergence bound and few repeats: this checks that every size of the grid
            // yields its series, not how precise they are, and must fit its budget on a busy
            // machine (a noisy loopback rarely settles to 1 % and then repeats 50 times a point).
            new PLogPMeasurement.Settings(1, 64 * 1024, 0.05, 0.1, 10, 64),
            Duration.ofSeconds(50),
            Ticker.system(),
            executor);

    long t0 = System.nanoTime();
    Reading r = skill.measure(server.address()).toCompletableFuture().get(60, TimeUnit.SECONDS);
    long ms = (System.nanoTime() - t0) / 1_000_000;

    Map<String, Double> series = skill.series(r);
    assertEquals("us", r.unit());
    assertEquals(r.value(), series.get("plogp.latency"));
    for (long m = 0; m <= 64 * 1024; m = m == 0 ? 1 : 2 * m) {
      for (String p : new String[] {"gap", "os", "or"}) {
        Double v = series.get("plogp." + p + ".m" + m);
        assertTrue(v != null && Double.isFinite(v), p + "(" + m + ") = " + v);
      }
    }
    for (String name : series.keySet()) {
      assertTrue(name.matches("[A-Za-z0-9._-]+"), name);
    }
    StringBuilder table =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "pLogP on loopback in %d ms, %d bytes: L = %.2f us%n%10s %10s %10s %10s%n",
                ms,
                r.bytesSpent(),
                r.value(),
                "m",
                "g us",
                "os us",
                "or us"));
    for (long m = 0; m <= 64 * 1024; m = m == 0 ? 1 : 2 * m) {
      table.append(
          String.format(
              Locale.ROOT,
              "%10d %10.2f %10.2f %10.2f%n",
              m,
              series.get("plogp.gap.m" + m),
              series.get("plogp.os.m" + m),
              series.get("plogp.or.m" + m)));
    }
    System.out.print(table);
    assertTrue(
        series.get("plogp.os.m65536") > 0 && series.get("plogp.or.m65536") > 0, table.toString());
  }

  @Test
  void skill_noListener_failsWithIoError() throws Exception {
    InetSocketAddress dead = server.address();
    server.close();
    PLogPSkill skill =
        new PLogPSkill(
            client,
            PLogPMeasurement.Settings.defaults(),
            Duration.ofSeconds(5),
            Ticker.system(),
            executor);

    ExecutionException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExecutionException.class,
            () -> skill.measure(dead).toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof java.io.IOException, e.getCause().toString());
  }
}
