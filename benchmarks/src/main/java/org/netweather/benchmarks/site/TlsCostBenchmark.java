package org.netweather.benchmarks.site;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.GetSnapshotRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.ProxyGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.cli.certs.SiteAuthority;
import org.netweather.client.NetWeatherClient;
import org.netweather.runtime.auth.Role;

/**
 * What mutual TLS and authorization cost: the same four daemons (nameserver, memory-host,
 * forecaster, proxy; each its own {@code bin/nws} process) run once in plaintext and once with
 * certificates from a site CA, in the same run, and the same load is timed against each: durable
 * appends straight to the memory-host (batches of 100 from four threads on one connection), whole
 * cluster snapshots from the proxy, and a first call on a new connection (the handshake).
 *
 * <pre>
 *   benchmarks/run site.TlsCostBenchmark [HOSTS] [ROUNDS]
 * </pre>
 *
 * <p>Rounds alternate plaintext and TLS (default 2 rounds) so that drift of the machine falls on
 * both alike.
 */
public final class TlsCostBenchmark {
  private static final int APPEND_THREADS = 4;
  private static final int APPEND_BATCH = 100;
  private static final long APPEND_MS = 5_000;
  private static final int SNAPSHOTS = 1_000;
  private static final int HANDSHAKES = 40;

  private TlsCostBenchmark() {}

  private record Figures(double appendsPerSecond, long[] snapshotNs, long[] handshakeNs) {}

  public static void main(String[] args) throws Exception {
    int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 32;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    Path home = Path.of(System.getProperty("netweather.home", ".")).toAbsolutePath();
    Path dir = Files.createTempDirectory("nws-tls-bench");
    Path ca = dir.resolve("ca");
    SiteAuthority authority = new SiteAuthority(ca, Clock.systemUTC());
    authority.create("bench-ca", Duration.ofDays(2));
    for (Role r : List.of(Role.NAMESERVER, Role.MEMORY, Role.FORECASTER, Role.PROXY)) {
      authority.issue(
          "localhost", r, List.of("127.0.0.1"), List.of(), Duration.ofDays(1), ca, r.label());
    }
    authority.issue("bench", Role.ADMIN, List.of(), List.of(), Duration.ofDays(1), ca, "admin");
    ChannelCredentials admin =
        TlsChannelCredentials.newBuilder()
            .keyManager(ca.resolve("admin.crt").toFile(), ca.resolve("admin.key").toFile())
            .trustManager(ca.resolve("ca.crt").toFile())
            .build();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < hosts; i++) {
      names.add(String.format(Locale.ROOT, "h%02d", i));
    }
    System.out.printf(
        Locale.ROOT,
        "TLS cost: %d-host cluster, %d round(s), %d cores%n",
        hosts,
        rounds,
        Runtime.getRuntime().availableProcessors());
    List<Figures> plain = new ArrayList<>();
    List<Figures> secured = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      for (boolean tls : new boolean[] {false, true}) {
        Path run = dir.resolve((tls ? "tls-" : "plain-") + round);
        String hostsYaml = "hosts: [" + String.join(", ", names) + "]\n";
        SiteDaemons site =
            new SiteDaemons(
                home,
                run,
                7200,
                "bench",
                role ->
                    (role.equals("proxy") ? hostsYaml : "")
                        + (tls
                            ? "tlsCert: "
                                + ca.resolve(role + ".crt")
                                + "\ntlsKey: "
                                + ca.resolve(role + ".key")
                                + "\ntlsCa: "
                                + ca.resolve("ca.crt")
                                + "\n"
                            : ""),
                tls ? admin : InsecureChannelCredentials.create());
        ChannelCredentials creds = tls ? admin : InsecureChannelCredentials.create();
        try (NetWeatherClient client =
            NetWeatherClient.forAddress(site.nameserver.address())
                .credentials(creds)
                .deadline(Duration.ofSeconds(30))
                .build()) {
          site.start(client);
          Figures f = measure(site, client, creds, names);
          (tls ? secured : plain).add(f);
          report(tls ? "TLS      " : "plaintext", f);
        } finally {
          site.stop();
        }
      }
    }
    double a0 =
        Arrays.stream(plain.toArray(new Figures[0]))
            .mapToDouble(f -> f.appendsPerSecond)
            .average()
            .orElse(0);
    double a1 =
        Arrays.stream(secured.toArray(new Figures[0]))
            .mapToDouble(f -> f.appendsPerSecond)
            .average()
            .orElse(0);
    System.out.printf(
        Locale.ROOT,
        "TLS / plaintext: appends %.2fx, snapshot p50 %.2fx, p99 %.2fx, first call %.2fx%n",
        a1 / a0,
        median(secured, 50) / median(plain, 50),
        median(secured, 99) / median(plain, 99),
        handshake(secured) / handshake(plain));
  }

  private static Figures measure(
      SiteDaemons site, NetWeatherClient client, ChannelCredentials creds, List<String> names)
      throws Exception {
    List<SeriesPoints> batch = new ArrayList<>();
    long now = System.currentTimeMillis();
    int pairs = 0;
    for (String h : names) {
      batch.add(series("cpu.availability:" + h, now, 0.5));
      batch.add(series("memory.free:" + h, now, 1000));
      for (String d : names) {
        if (!d.equals(h)) {
          batch.add(series("tcp.bandwidth:" + h + "->" + d, now, 100));
          batch.add(series("tcp.latency:" + h + "->" + d, now, 0.2));
          pairs++;
        }
      }
      if (batch.size() >= 400) {
        client.put(batch);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      client.put(batch);
    }
    int expectedPairs = pairs;
    ManagedChannel toProxy = Grpc.newChannelBuilder(site.proxy.address(), creds).build();
    ManagedChannel toMemory = Grpc.newChannelBuilder(site.memory.address(), creds).build();
    try {
      ProxyGrpc.ProxyBlockingStub proxy = ProxyGrpc.newBlockingStub(toProxy);
      SiteDaemons.await(
          "a full snapshot",
          Duration.ofMinutes(2),
          () -> {
            ClusterSnapshot s = proxy.getSnapshot(GetSnapshotRequest.getDefaultInstance());
            return s.getPairsCount() == expectedPairs && s.getMissingPairsCount() == 0;
          });
      long settle = System.nanoTime() + 5_000_000_000L;
      while (System.nanoTime() < settle) {
        proxy.getSnapshot(GetSnapshotRequest.getDefaultInstance());
      }
      long[] snapshots = new long[SNAPSHOTS];
      for (int i = 0; i < SNAPSHOTS; i++) {
        long t = System.nanoTime();
        proxy.getSnapshot(GetSnapshotRequest.getDefaultInstance());
        snapshots[i] = System.nanoTime() - t;
      }
      MemoryHostGrpc.MemoryHostBlockingStub memory = MemoryHostGrpc.newBlockingStub(toMemory);
      appendRate(memory, 2_000);
      double rate = appendRate(memory, APPEND_MS);
      long[] handshakes = new long[HANDSHAKES];
      for (int i = 0; i < HANDSHAKES; i++) {
        long t = System.nanoTime();
        ManagedChannel fresh = Grpc.newChannelBuilder(site.memory.address(), creds).build();
        try {
          HealthGrpc.newBlockingStub(fresh)
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .check(HealthCheckRequest.getDefaultInstance());
        } finally {
          fresh.shutdownNow();
        }
        handshakes[i] = System.nanoTime() - t;
      }
      Arrays.sort(snapshots);
      Arrays.sort(handshakes);
      return new Figures(rate, snapshots, handshakes);
    } finally {
      toProxy.shutdownNow();
      toMemory.shutdownNow();
    }
  }

  private static SeriesPoints series(String name, long now, double value) {
    SeriesPoints.Builder sp = SeriesPoints.newBuilder().setSeries(name);
    for (int k = 0; k < 10; k++) {
      sp.addPoints(
          Measurement.newBuilder()
              .setTimestampMs(now - (10 - k) * 10_000L)
              .setValue(value * (1 + 0.01 * (k % 3))));
    }
    return sp.build();
  }

  private static final AtomicLong NEXT_TS =
      new AtomicLong(System.currentTimeMillis() - 86_400_000L);

  private static double appendRate(MemoryHostGrpc.MemoryHostBlockingStub stub, long durationMs)
      throws InterruptedException {
    AtomicLong stored = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(APPEND_THREADS);
    long start = System.nanoTime();
    long end = start + durationMs * 1_000_000;
    for (int c = 0; c < APPEND_THREADS; c++) {
      String name = "user.bench:client" + c;
      pool.execute(
          () -> {
            while (System.nanoTime() < end) {
              SeriesPoints.Builder sp = SeriesPoints.newBuilder().setSeries(name);
              for (int i = 0; i < APPEND_BATCH; i++) {
                sp.addPoints(
                    Measurement.newBuilder().setTimestampMs(NEXT_TS.incrementAndGet()).setValue(i));
              }
              stored.addAndGet(
                  stub.withDeadlineAfter(30, TimeUnit.SECONDS)
                      .append(AppendRequest.newBuilder().addBatches(sp).build())
                      .getStored());
            }
          });
    }
    pool.shutdown();
    pool.awaitTermination(2, TimeUnit.MINUTES);
    return stored.get() / ((System.nanoTime() - start) / 1e9);
  }

  private static void report(String mode, Figures f) {
    System.out.printf(
        Locale.ROOT,
        "%s  appends %9.0f meas/s   snapshot p50 %6.2f ms p99 %6.2f ms   first call p50 %6.2f ms%n",
        mode,
        f.appendsPerSecond,
        pct(f.snapshotNs, 50) / 1e6,
        pct(f.snapshotNs, 99) / 1e6,
        pct(f.handshakeNs, 50) / 1e6);
  }

  private static double median(List<Figures> runs, int p) {
    return runs.stream().mapToDouble(f -> pct(f.snapshotNs, p)).sorted().toArray()[runs.size() / 2];
  }

  private static double handshake(List<Figures> runs) {
    return runs.stream()
        .mapToDouble(f -> pct(f.handshakeNs, 50))
        .sorted()
        .toArray()[runs.size() / 2];
  }

  private static double pct(long[] sorted, int p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }
}
