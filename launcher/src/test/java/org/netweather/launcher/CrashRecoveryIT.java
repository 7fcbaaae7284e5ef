package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.client.NetWeatherClient;

/**
 * Nameserver and memory-host as separate processes; 10 000 measurements appended while the
 * memory-host is killed with SIGKILL and restarted, and then the nameserver too. Every acknowledged
 * measurement must be stored exactly once, and the registrations must come back.
 */
class CrashRecoveryIT {
  private static final int TOTAL = 10_000;
  private static final int BATCH = 10;
  private static final List<String> SERIES =
      List.of("cpu.availability:h0", "cpu.availability:h1", "memory.free:h0", "memory.free:h1");

  @TempDir Path dir;

  @Test
  @Timeout(300)
  void appendsSurviveKill9OfMemoryHostAndNameserver() throws Exception {
    int nsPort = DaemonProcesses.freePort();
    int memPort = DaemonProcesses.freePort();
    String[] nsArgs = {
      "nameserver",
      "--port",
      "" + nsPort,
      "--data-dir",
      dir.resolve("ns").toString(),
      "--host",
      "localhost",
      "--metrics-port",
      "-1"
    };
    String[] memArgs = {
      "memory",
      "--port",
      "" + memPort,
      "--data-dir",
      dir.resolve("mem").toString(),
      "--nameserver",
      "localhost:" + nsPort,
      "--host",
      "localhost",
      "--metrics-port",
      "-1"
    };
    try (DaemonProcesses procs = new DaemonProcesses(dir.resolve("logs"))) {
      Process ns = procs.start("nameserver", nsArgs);
      Process mem = procs.start("memory", memArgs);
      ManagedChannel nsChannel = DaemonProcesses.channel(nsPort);
      try (NetWeatherClient client =
          NetWeatherClient.forChannel(nsChannel)
              .deadline(Duration.ofSeconds(5))
              .channels(address -> DaemonProcesses.channel(Integer.parseInt(address.split(":")[1])))
              .build()) {
        await("memory-host registered", () -> hasMemoryHost(client), procs);

        long base = System.currentTimeMillis() - 3_600_000;
        Map<String, Set<Long>> acked = new ConcurrentHashMap<>();
        SERIES.forEach(s -> acked.put(s, ConcurrentHashMap.newKeySet()));
        AtomicInteger done = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread appender =
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < TOTAL; i += BATCH) {
                      String series = SERIES.get((i / BATCH) % SERIES.size());
                      SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(series);
                      for (int k = i; k < i + BATCH; k++) {
                        b.addPoints(
                            Measurement.newBuilder()
                                .setTimestampMs(base + k)
                                .setValue((k % 100) / 100.0));
                      }
                      putUntilAcknowledged(client, b.build());
                      b.getPointsList().forEach(p -> acked.get(series).add(p.getTimestampMs()));
                      done.addAndGet(BATCH);
                    }
                  } catch (Throwable t) {
                    failure.set(t);
                  }
                },
                "appender");
        appender.start();

        await("2000 acknowledged", () -> done.get() >= 2000, procs);
        DaemonProcesses.kill9(mem);
        Thread.sleep(500);
        mem = procs.start("memory", memArgs);
        await("5000 acknowledged", () -> done.get() >= 5000, procs);
        DaemonProcesses.kill9(ns);
        Thread.sleep(500);
        ns = procs.start("nameserver", nsArgs);
        await("7000 acknowledged", () -> done.get() >= 7000, procs);
        DaemonProcesses.kill9(mem);
        mem = procs.start("memory", memArgs);
        appender.join(240_000);
        if (failure.get() != null) {
          throw new AssertionError("appender failed", failure.get());
        }
        assertEquals(TOTAL, done.get());

        for (String s : SERIES) {
          List<Measurement> stored = fetchWithRetry(client, s);
          List<Long> times =
              stored.stream().map(Measurement::getTimestampMs).collect(Collectors.toList());
          assertEquals(times.size(), Set.copyOf(times).size(), s + " holds duplicates");
          assertEquals(acked.get(s), Set.copyOf(times), s + " lost or invented points");
          for (Measurement m : stored) {
            assertEquals(((m.getTimestampMs() - base) % 100) / 100.0, m.getValue(), 1e-12);
          }
        }
        await(
            "registrations back",
            () -> {
              Map<String, String> kinds = new HashMap<>();
              for (Registration r : client.search("")) {
                kinds.put(r.getKind(), r.getAddress());
              }
              return ("localhost:" + memPort).equals(kinds.get("memory"))
                  && ("localhost:" + nsPort).equals(kinds.get("nameserver"));
            },
            procs);
      } finally {
        nsChannel.shutdownNow();
      }
    }
  }

  private static boolean hasMemoryHost(NetWeatherClient client) {
    try {
      return !client.search("(kind=memory)").isEmpty();
    } catch (StatusRuntimeException e) {
      return false;
    }
  }

  private static void putUntilAcknowledged(NetWeatherClient client, SeriesPoints batch)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + 120_000;
    while (true) {
      try {
        client.put(List.of(batch));
        return;
      } catch (StatusRuntimeException e) {
        // UNAVAILABLE or DEADLINE_EXCEEDED while a daemon restarts: retry the same batch,
        // which is safe because appends are idempotent.
        if (System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  private static List<Measurement> fetchWithRetry(NetWeatherClient client, String series)
      throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      try {
        return new ArrayList<>(client.last(series, 100_000).getPointsList());
      } catch (StatusRuntimeException e) {
        if (attempt > 100) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }

  private static void await(String what, BooleanSupplier condition, DaemonProcesses procs)
      throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(
            "timed out waiting for "
                + what
                + "\nnameserver log:\n"
                + procs.log("nameserver")
                + "\nmemory log:\n"
                + procs.log("memory"));
      }
      Thread.sleep(100);
    }
  }
}
