package org.netweather.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.memoryhost.MeasurementStore;
import org.netweather.memoryhost.MemoryHostService;
import org.netweather.memoryhost.StoreOptions;
import org.netweather.nameserver.Nameserver;
import org.netweather.nameserver.NameserverService;
import org.netweather.runtime.NamedThreadFactory;

/**
 * The forecaster's CPU cost per measurement, end to end: a memory-host (store and gRPC service on a
 * loopback port) is fed at a fixed rate over N series, and a forecaster in the same process finds
 * it through a nameserver, follows its watch stream and serves forecasts. The process's CPU time
 * per appended measurement is measured first without the forecaster (feeder, memory-host,
 * nameserver) and then with it; the difference is the forecaster's cost. One client watches the
 * forecasts of about 1% of the series over gRPC, as a proxy does, and reports the delay from a
 * measurement's timestamp (the wall clock when it was appended) to its forecast arriving.
 *
 * <pre>
 *   benchmarks/run ForecasterBenchmark [SERIES [RATE [SECONDS [HISTORY [BATCH]]]]]
 *   BENCH_JAVA_OPTS='-Xms4g -Xmx4g' benchmarks/run ForecasterBenchmark 100000 9500 30 200
 * </pre>
 *
 * <p>Defaults: 20 000 series, 2 000 measurements/s in appends of 5 series each, 30 s per phase, 200
 * stored points per series before the forecaster starts. Also printed: the time from the
 * forecaster's start until every series has a forecast (warm-up from the stored history), and RSS
 * and heap after GC per series (the heap is sized by the JVM options; fix it with -Xms = -Xmx so
 * RSS means something).
 *
 * <p>Results (2-vCPU VM shared with four other builds, so process-level differences are noisy;
 * OpenJDK 17, -Xms3g -Xmx3g; {@code ForecasterBenchmark 20000 2000 20 200 5}), the forecaster
 * before batch ingest (one Measurement object and snapshot per point, whole-history warm-up) and
 * after:
 *
 * <pre>
 *                                         before        after
 *   forecaster threads, us/measurement    15.4          14.6
 *   process less baselines, us/meas.      19.2          47.1   (baselines 127/76 and 85/72 us)
 *   warm-up, every series forecast        55.6 s        7.3-22 s (200 vs 101 points/series)
 *   append-to-forecast p99 / max          451 / 597 ms  71-132 / 147-1486 ms
 *   heap after GC per series              20.8 KiB      20.6 KiB
 * </pre>
 *
 * <p>The memory-host's background work after the prefill moves the process baselines by more than
 * the forecaster costs, hence the attribution by thread; GC is in neither figure. RSS per series
 * here mixes in the memory-host's heap growth: see {@code forecast.SeriesMemory} for the forecaster
 * alone (24.2 KiB RSS, 20.5 KiB heap per series at 100 000 series, -Xms4g -Xmx4g).
 */
public final class ForecasterBenchmark {
  private static final long TICK_MS = 100;

  private ForecasterBenchmark() {}

  public static void main(String[] args) throws Exception {
    int series = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int rate = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    int history = args.length > 3 ? Integer.parseInt(args[3]) : 200;
    int batch = args.length > 4 ? Integer.parseInt(args[4]) : 5;
    Path dir = Files.createTempDirectory("nws-fc-bench");
    System.out.printf(
        Locale.ROOT,
        "forecaster benchmark: %d series, %d measurements/s in appends of %d, %d s per phase,"
            + " %d points of history (%d cores, max heap %d MiB)%n",
        series,
        rate,
        batch,
        seconds,
        history,
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20);
    String[] names = new String[series];
    for (int i = 0; i < series; i++) {
      names[i] =
          (i % 2 == 0 ? "tcp.latency:h" + (i / 40) + "->g" + (i % 40) : "cpu.availability:h" + i);
    }
    ExecutorService watchPool = Executors.newFixedThreadPool(2);
    ScheduledExecutorService feeder = Executors.newSingleThreadScheduledExecutor();
    List<AutoCloseable> closing = new ArrayList<>();
    try {
      MeasurementStore store =
          MeasurementStore.open(
              StoreOptions.defaults(dir.resolve("mem"))
                  .withRawPoints(1_000)
                  .withLimits(2_000_000, 1_000_000, 100_000_000),
              Clock.systemUTC(),
              watchPool);
      closing.add(store);
      Server mem =
          NettyServerBuilder.forPort(0)
              .addService(new MemoryHostService(store, Clock.systemUTC()))
              .build()
              .start();
      closing.add(() -> mem.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
      Nameserver ns = Nameserver.open(dir.resolve("ns"), Clock.systemUTC());
      closing.add(ns);
      Server nsServer =
          NettyServerBuilder.forPort(0).addService(new NameserverService(ns)).build().start();
      closing.add(() -> nsServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
      ns.register(
          Registration.newBuilder()
              .setName("memory@bench")
              .setKind("memory")
              .setAddress("localhost:" + mem.getPort())
              .build(),
          3600);
      ManagedChannel memChannel = plaintext("localhost:" + mem.getPort());
      closing.add(memChannel::shutdownNow);
      MemoryHostGrpc.MemoryHostBlockingStub appender = MemoryHostGrpc.newBlockingStub(memChannel);

      long start = System.currentTimeMillis();
      prefill(appender, names, history, start);
      Feeder feed = new Feeder(memChannel, names, rate, batch);
      feeder.scheduleAtFixedRate(feed, 0, TICK_MS, TimeUnit.MILLISECONDS);

      // Let the memory-host digest the history (compactions, archives) before measuring.
      Thread.sleep(20_000);
      Phase baseline = Phase.measure(feed, seconds);
      System.out.printf(Locale.ROOT, "baseline (memory-host, nameserver, feeder): %s%n", baseline);

      long rssBefore = rssBytes();
      long heapBefore = heapAfterGc();
      ForecasterProperties props =
          ForecasterProperties.defaults()
              .with(ForecasterProperties.PORT, 0)
              .with(ForecasterProperties.NAMESERVER, "localhost:" + nsServer.getPort())
              .with(ForecasterProperties.HOST, "localhost")
              .with(ForecasterProperties.DISCOVERY_MS, 500L);
      long startNs = System.nanoTime();
      boolean[] stopped = new boolean[1];
      ForecasterServer forecaster =
          ForecasterServer.start(
              props,
              NettyServerBuilder.forPort(0)
                  .executor(FC_EXECUTOR)
                  .bossEventLoopGroup(FC_LOOPS)
                  .workerEventLoopGroup(FC_LOOPS)
                  .channelType(NioServerSocketChannel.class),
              ForecasterBenchmark::forecasterChannel);
      closing.add(
          () -> {
            if (forecaster.getPort() >= 0 && !stopped[0]) {
              forecaster.close();
            }
          });
      while (forecaster.forecasts().size() < series) {
        Thread.sleep(50);
      }
      double warmS = (System.nanoTime() - startNs) / 1e9;
      System.out.printf(Locale.ROOT, "warm-up: every series forecast %.1f s after start%n", warmS);

      Delays delays = new Delays();
      ManagedChannel fcChannel = plaintext("localhost:" + forecaster.getPort());
      closing.add(fcChannel::shutdownNow);
      ForecasterGrpc.newStub(fcChannel)
          .watchForecasts(
              GetForecastsRequest.newBuilder().addSeries("cpu.availability:h*1").build(), delays);
      Thread.sleep(5_000);
      delays.reset();
      Phase with = Phase.measure(feed, seconds);
      System.out.printf(Locale.ROOT, "with the forecaster:                        %s%n", with);
      System.out.printf(Locale.ROOT, "append-to-forecast delay %s%n", delays.summary());
      long rssAfter = rssBytes();
      long heapAfter = heapAfterGc();
      System.out.printf(
          Locale.ROOT,
          "forecaster memory per series: RSS %.1f KiB, heap after GC %.1f KiB%n",
          (rssAfter - rssBefore) / 1024.0 / series,
          (heapAfter - heapBefore) / 1024.0 / series);
      stopped[0] = true;
      forecaster.close();
      fcChannel.shutdownNow();
      Thread.sleep(5_000);
      Phase after = Phase.measure(feed, seconds);
      System.out.printf(Locale.ROOT, "baseline again, forecaster stopped:         %s%n", after);
      double base = (baseline.usPerMeasurement() + after.usPerMeasurement()) / 2;
      System.out.printf(
          Locale.ROOT,
          "forecaster: %.1f us CPU per measurement (process CPU less"
              + " the mean of the two baselines, %.1f and %.1f apart); its own threads %.1f us%n",
          with.usPerMeasurement() - base,
          baseline.usPerMeasurement(),
          after.usPerMeasurement(),
          with.forecasterThreadsUs());
    } finally {
      feeder.shutdownNow();
      for (int i = closing.size() - 1; i >= 0; i--) {
        closing.get(i).close();
      }
      watchPool.shutdownNow();
      FC_EXECUTOR.shutdownNow();
      FC_LOOPS.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  // The forecaster's threads have names of their own, so that their CPU can be told apart from
  // the memory-host's in this process (GC threads remain shared).
  private static final ExecutorService FC_EXECUTOR =
      Executors.newCachedThreadPool(new NamedThreadFactory("fc-grpc"));
  private static final NioEventLoopGroup FC_LOOPS =
      new NioEventLoopGroup(2, new NamedThreadFactory("fc-netty"));

  static ManagedChannel forecasterChannel(String address) {
    return NettyChannelBuilder.forTarget(address)
        .usePlaintext()
        .executor(FC_EXECUTOR)
        .eventLoopGroup(FC_LOOPS)
        .channelType(NioSocketChannel.class)
        .build();
  }

  static ManagedChannel plaintext(String address) {
    return NettyChannelBuilder.forTarget(address).usePlaintext().build();
  }

  /** Stores {@code history} points per series, 10 s apart, ending before {@code now}. */
  private static void prefill(
      MemoryHostGrpc.MemoryHostBlockingStub stub, String[] names, int history, long now) {
    long first = now - (history + 1) * 10_000L;
    AppendRequest.Builder req = AppendRequest.newBuilder();
    int points = 0;
    for (int s = 0; s < names.length; s++) {
      SeriesPoints.Builder sp = SeriesPoints.newBuilder().setSeries(names[s]);
      for (int i = 0; i < history; i++) {
        sp.addPoints(
            Measurement.newBuilder().setTimestampMs(first + i * 10_000L).setValue(value(s, i)));
      }
      req.addBatches(sp);
      points += history;
      if (points + history > 10_000 || s == names.length - 1) {
        stub.append(req.build());
        req = AppendRequest.newBuilder();
        points = 0;
      }
    }
  }

  private static double value(int series, long i) {
    double x = 0.5 + 0.3 * Math.sin((series + i) * 0.1) + 0.05 * ((i * 2654435761L) % 100) / 100;
    return Math.min(1, Math.max(0, x));
  }

  /**
   * Appends rate / 10 measurements every 100 ms, round robin over the series, in concurrent appends
   * of {@code batch} series each, as many sensors delivering small batches do (the memory-host then
   * publishes many small watch messages, the forecaster's hard case).
   */
  private static final class Feeder implements Runnable {
    private final MemoryHostGrpc.MemoryHostFutureStub stub;
    private final String[] names;
    private final int perTick;
    private final int batch;
    private final long[] lastTs;
    private final AtomicLong appended = new AtomicLong();
    private int next;
    private long step;

    Feeder(ManagedChannel channel, String[] names, int rate, int batch) {
      this.stub = MemoryHostGrpc.newFutureStub(channel);
      this.names = names;
      this.perTick = (int) (rate * TICK_MS / 1000);
      this.batch = batch;
      this.lastTs = new long[names.length];
    }

    @Override
    public void run() {
      long now = System.currentTimeMillis();
      List<com.google.common.util.concurrent.ListenableFuture<AppendResponse>> calls =
          new ArrayList<>();
      for (int done = 0; done < perTick; ) {
        AppendRequest.Builder req = AppendRequest.newBuilder();
        for (int i = 0; i < batch && done < perTick; i++, done++) {
          int s = next;
          next = (next + 1) % names.length;
          long ts = Math.max(now, lastTs[s] + 1);
          lastTs[s] = ts;
          req.addBatches(
              SeriesPoints.newBuilder()
                  .setSeries(names[s])
                  .addPoints(
                      Measurement.newBuilder().setTimestampMs(ts).setValue(value(s, step++))));
        }
        calls.add(stub.withDeadlineAfter(10, TimeUnit.SECONDS).append(req.build()));
      }
      for (var call : calls) {
        try {
          appended.addAndGet(call.get().getStored());
        } catch (Exception e) {
          System.err.println("append failed: " + e);
        }
      }
    }
  }

  /**
   * Process CPU, CPU of the forecaster's own threads (named fc-* and forecaster-*), and
   * measurements appended over one phase.
   */
  private record Phase(double cpuS, double forecasterThreadsS, long measurements, double wallS) {
    static Phase measure(Feeder feed, int seconds) throws InterruptedException {
      OperatingSystemMXBean os =
          (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      java.util.Map<Long, Long> threads0 = forecasterThreadCpu();
      long cpu0 = os.getProcessCpuTime();
      long n0 = feed.appended.get();
      long t0 = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      long cpu = os.getProcessCpuTime() - cpu0;
      long n = feed.appended.get() - n0;
      double wall = (System.nanoTime() - t0) / 1e9;
      long threads = 0;
      for (var e : forecasterThreadCpu().entrySet()) {
        threads += e.getValue() - threads0.getOrDefault(e.getKey(), 0L);
      }
      return new Phase(cpu / 1e9, threads / 1e9, n, wall);
    }

    private static java.util.Map<Long, Long> forecasterThreadCpu() {
      java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      java.util.Map<Long, Long> out = new java.util.HashMap<>();
      for (java.lang.management.ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
        if (info != null
            && (info.getThreadName().startsWith("fc-")
                || info.getThreadName().startsWith("forecaster-"))) {
          out.put(info.getThreadId(), mx.getThreadCpuTime(info.getThreadId()));
        }
      }
      return out;
    }

    double usPerMeasurement() {
      return cpuS * 1e6 / measurements;
    }

    double forecasterThreadsUs() {
      return forecasterThreadsS * 1e6 / measurements;
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%.2f cores, %.0f measurements/s, %.1f us CPU each",
          cpuS / wallS,
          measurements / wallS,
          usPerMeasurement());
    }
  }

  /** Delay from each watched forecast's measurement to its arrival here. */
  private static final class Delays implements StreamObserver<ForecastUpdate> {
    private final List<Long> delays = new ArrayList<>();
    private long since = Long.MAX_VALUE;

    synchronized void reset() {
      delays.clear();
      since = System.currentTimeMillis();
    }

    @Override
    public synchronized void onNext(ForecastUpdate u) {
      long ts = u.getForecast().getLast().getTimestampMs();
      if (ts >= since) {
        delays.add(System.currentTimeMillis() - ts);
      }
    }

    @Override
    public void onError(Throwable t) {
      System.err.println("forecast watch failed: " + t);
    }

    @Override
    public void onCompleted() {}

    synchronized String summary() {
      if (delays.isEmpty()) {
        return "(no updates)";
      }
      List<Long> sorted = new ArrayList<>(delays);
      sorted.sort(null);
      return String.format(
          Locale.ROOT,
          "p50 %d ms, p99 %d ms, max %d ms (%d updates)",
          sorted.get(sorted.size() / 2),
          sorted.get(sorted.size() * 99 / 100),
          sorted.get(sorted.size() - 1),
          sorted.size());
    }
  }

  private static long heapAfterGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static long rssBytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return 0;
  }
}
