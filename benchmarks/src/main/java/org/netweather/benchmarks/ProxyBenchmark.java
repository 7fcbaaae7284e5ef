package org.netweather.benchmarks;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetSnapshotRequest;
import org.netweather.api.v1.ProxyGrpc;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.forecaster.SeriesForecasts;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;

/**
 * A 64-host cluster (4 032 ordered pairs) of synthetic series behind a proxy, over real loopback
 * gRPC: the latency of one whole-cluster snapshot from the proxy, against the baseline of the
 * same data fetched series by series from the forecaster in the same run.
 *
 * <pre>
 *   benchmarks/run ProxyBenchmark [HOSTS]
 * </pre>
 *
 * <p>Last results (2-vCPU VM, 2026-11-22, 409 KB snapshot): proxy p50 2.2 ms, p99 7.9 ms;
 * series by series p50 1 190 ms, p99 2 819 ms: 542x at p50, 356x at p99.
 */
public final class ProxyBenchmark {
  private ProxyBenchmark() {}

  public static void main(String[] args) throws Exception {
    int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 64;
    Path dir = Files.createTempDirectory("nws-proxy-bench");
    NameserverProperties nsp = new NameserverProperties();
    nsp.dataDir = dir.resolve("ns").toString();
    nsp.host = "localhost";
    NameserverServer ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(0));
    ForecasterProperties fp = new ForecasterProperties();
    fp.nameserver = "localhost:" + ns.getPort();
    fp.host = "localhost";
    ForecasterServer forecaster = ForecasterServer.start(fp, NettyServerBuilder.forPort(0),
        ForecasterServer::plaintext);

    List<String> names = new ArrayList<>();
    List<String> series = new ArrayList<>();
    for (int i = 0; i < hosts; i++) {
      names.add(String.format("h%02d", i));
    }
    for (String h : names) {
      series.add("cpu.availability:" + h);
      series.add("memory.free:" + h);
      for (String d : names) {
        if (!d.equals(h)) {
          series.add("tcp.bandwidth:" + h + "->" + d);
          series.add("tcp.latency:" + h + "->" + d);
        }
      }
    }
    SeriesForecasts forecasts = forecaster.forecasts();
    long now = System.currentTimeMillis();
    long[] t = new long[20];
    double[] v = new double[20];
    for (String s : series) {
      for (int k = 0; k < t.length; k++) {
        t[k] = now - (t.length - k) * 10_000L;
        v[k] = s.startsWith("cpu") ? 0.5 + 0.01 * (k % 5) : 100 + k % 7;
      }
      forecasts.observe(s, t, v, t.length);
    }

    ProxyProperties pp = new ProxyProperties();
    pp.nameserver = "localhost:" + ns.getPort();
    pp.cluster = "bench";
    pp.hosts = names;
    pp.host = "localhost";
    pp.port = 0;
    ProxyServer proxy = ProxyServer.start(pp, NettyServerBuilder.forPort(0),
        ForecasterServer::plaintext);
    ManagedChannel toProxy = ForecasterServer.plaintext("localhost:" + proxy.getPort());
    ManagedChannel toForecaster = ForecasterServer.plaintext("localhost:"
        + forecaster.getPort());
    try {
      ProxyGrpc.ProxyBlockingStub p = ProxyGrpc.newBlockingStub(toProxy);
      long deadline = System.currentTimeMillis() + 60_000;
      while (p.getSnapshot(GetSnapshotRequest.getDefaultInstance()).getMissingPairsCount() > 0) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("proxy never filled its cache");
        }
        Thread.sleep(100);
      }
      ClusterSnapshot snap = p.getSnapshot(GetSnapshotRequest.getDefaultInstance());
      System.out.printf(Locale.ROOT, "cluster of %d hosts: %d series, %d pairs, snapshot %d "
          + "bytes%n", hosts, series.size(), snap.getPairsCount(), snap.getSerializedSize());

      long[] proxyNs = time(2_000, 500, () -> p.getSnapshot(
          GetSnapshotRequest.getDefaultInstance()));
      ForecasterGrpc.ForecasterBlockingStub f = ForecasterGrpc.newBlockingStub(toForecaster);
      long[] directNs = time(15, 3, () -> {
        for (String s : series) {
          f.withDeadlineAfter(5, TimeUnit.SECONDS)
              .getForecast(GetForecastRequest.newBuilder().setSeries(s).build());
        }
      });
      report("proxy snapshot (one call)", proxyNs);
      report("forecaster, series by series", directNs);
      System.out.printf(Locale.ROOT, "speed-up at p50: %.0fx, at p99: %.0fx%n",
          (double) pct(directNs, 50) / pct(proxyNs, 50),
          (double) pct(directNs, 99) / pct(proxyNs, 99));
    } finally {
      toProxy.shutdownNow();
      toForecaster.shutdownNow();
      proxy.close();
      forecaster.close();
      ns.close();
    }
  }

  private static long[] time(int runs, int warmup, Runnable r) {
    for (int i = 0; i < warmup; i++) {
      r.run();
    }
    long[] ns = new long[runs];
    for (int i = 0; i < runs; i++) {
      long t = System.nanoTime();
      r.run();
      ns[i] = System.nanoTime() - t;
    }
    Arrays.sort(ns);
    return ns;
  }

  private static long pct(long[] sorted, int p) {
    return sorted[Math.min(sorted.length - 1, sorted.length * p / 100)];
  }

  private static void report(String what, long[] ns) {
    System.out.printf(Locale.ROOT, "%-30s p50 %9.3f ms  p99 %9.3f ms  (%d runs)%n", what,
        pct(ns, 50) / 1e6, pct(ns, 99) / 1e6, ns.length);
  }
}
