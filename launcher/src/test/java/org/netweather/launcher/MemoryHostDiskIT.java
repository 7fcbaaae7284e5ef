package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;

/**
 * The memory-host's data directory under stress, with real processes: a second daemon on the same
 * directory, and a disk that fills up, is freed, and is nearly full again across a SIGKILL.
 */
class MemoryHostDiskIT {
  @TempDir Path dir;

  private static String[] memArgs(Path data, int port) {
    return new String[] {
      "memory",
      "--port",
      "" + port,
      "--data-dir",
      data.toString(),
      "--nameserver",
      "localhost:1",
      "--host",
      "localhost",
      "--metrics-port",
      "-1"
    };
  }

  @Test
  @Timeout(120)
  void secondDaemonOnOneDataDirectory_refusesToStart_namingTheHolder() throws Exception {
    Path data = dir.resolve("mem");
    try (DaemonProcesses procs = new DaemonProcesses(dir.resolve("logs"))) {
      int port = DaemonProcesses.freePort();
      Process first = procs.start("first", memArgs(data, port));
      ManagedChannel ch = DaemonProcesses.channel(port);
      try {
        MemoryHostGrpc.MemoryHostBlockingStub stub = MemoryHostGrpc.newBlockingStub(ch);
        await(() -> append(stub, "user.x:a", 1, 1.0) != null, procs, "first serves");
        Process second = procs.start("second", memArgs(data, DaemonProcesses.freePort()));
        assertTrue(second.waitFor(60, TimeUnit.SECONDS), "the second daemon should exit");
        assertFalse(second.exitValue() == 0);
        String log = procs.log("second");
        assertTrue(log.contains("in use by another daemon (pid " + first.pid()), log);
        // The first one is unharmed.
        assertTrue(first.isAlive());
        assertEquals(
            1,
            stub.fetch(FetchRequest.newBuilder().setSeries("user.x:a").setLast(5).build())
                .getPointsCount());
      } finally {
        ch.shutdownNow();
      }
    }
  }

  @Test
  @Timeout(300)
  void diskFull_refusesWithResourceExhausted_recoversWhenFreed_andSurvivesKill9() throws Exception {
    Path mnt = dir.resolve("tmpfs");
    Files.createDirectories(mnt);
    Assumptions.assumeTrue(
        run("mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", mnt.toString()) == 0,
        "needs root to mount a small tmpfs");
    try (DaemonProcesses procs = new DaemonProcesses(dir.resolve("logs"))) {
      Path data = mnt.resolve("mem");
      Path filler = mnt.resolve("filler");
      fill(filler, 40L << 20); // leaves about 8 MB
      int port = DaemonProcesses.freePort();
      Process mem = procs.start("memory", memArgs(data, port));
      ManagedChannel ch = DaemonProcesses.channel(port);
      try {
        MemoryHostGrpc.MemoryHostBlockingStub stub = MemoryHostGrpc.newBlockingStub(ch);
        await(() -> append(stub, "user.x:s0", 1, 0.5) != null, procs, "memory-host serves");
        Map<String, Set<Long>> acked = new HashMap<>();
        acked.computeIfAbsent("user.x:s0", k -> new HashSet<>()).add(1L);

        // Fill the disk with appends until the memory-host refuses one.
        StatusRuntimeException full = null;
        long t = 2;
        for (int round = 0; round < 100_000 && full == null; round++) {
          String series = "user.x:s" + (round % 500);
          try {
            appendBatch(stub, series, t, 200);
            for (long k = t; k < t + 200; k++) {
              acked.computeIfAbsent(series, x -> new HashSet<>()).add(k);
            }
          } catch (StatusRuntimeException e) {
            full = e;
          }
          t += 200;
        }
        assertTrue(full != null, "the disk never filled");
        assertEquals(
            Status.Code.RESOURCE_EXHAUSTED,
            full.getStatus().getCode(),
            String.valueOf(full.getStatus()));
        assertTrue(
            full.getStatus().getDescription().contains(data.toString()),
            full.getStatus().getDescription());

        // Space freed: service resumes on its own.
        Files.delete(filler);
        long[] next = {t};
        await(
            () -> {
              try {
                appendBatch(stub, "user.x:after", next[0], 10);
                for (long k = next[0]; k < next[0] + 10; k++) {
                  acked.computeIfAbsent("user.x:after", x -> new HashSet<>()).add(k);
                }
                return true;
              } catch (StatusRuntimeException e) {
                next[0] += 10;
                return false;
              }
            },
            procs,
            "appends accepted again after space was freed");

        // SIGKILL, then restart on a nearly full disk again.
        DaemonProcesses.kill9(mem);
        long free = Files.getFileStore(mnt).getUsableSpace();
        fill(filler, Math.max(0, free - (2L << 20)));
        mem = procs.start("memory-2", memArgs(data, port));
        ManagedChannel ch2 = DaemonProcesses.channel(port);
        try {
          MemoryHostGrpc.MemoryHostBlockingStub stub2 = MemoryHostGrpc.newBlockingStub(ch2);
          await(() -> serves(stub2), procs, "restarted with 2 MB free");
          for (Map.Entry<String, Set<Long>> e : acked.entrySet()) {
            List<Measurement> got =
                stub2
                    .fetch(FetchRequest.newBuilder().setSeries(e.getKey()).setLast(100_000).build())
                    .getPointsList();
            Set<Long> times = new HashSet<>();
            for (Measurement m : got) {
              assertTrue(times.add(m.getTimestampMs()), "duplicate in " + e.getKey());
            }
            assertTrue(times.containsAll(e.getValue()), e.getKey() + " lost acknowledged points");
          }
          // Every series usable once space is back.
          Files.delete(filler);
          for (String s : acked.keySet()) {
            assertEquals(1, append(stub2, s, 1_000_000_000L, 1.0).longValue(), s);
          }
        } finally {
          ch2.shutdownNow();
        }
      } finally {
        ch.shutdownNow();
        procs.close();
        run("umount", "-l", mnt.toString());
      }
    }
  }

  private static boolean serves(MemoryHostGrpc.MemoryHostBlockingStub stub) {
    try {
      stub.withDeadlineAfter(2, TimeUnit.SECONDS)
          .listSeries(
              org.netweather.api.v1.ListSeriesRequest.newBuilder().setPattern("user.x:s0").build());
      return true;
    } catch (StatusRuntimeException e) {
      return false;
    }
  }

  private static Long append(
      MemoryHostGrpc.MemoryHostBlockingStub stub, String series, long t, double v) {
    try {
      return stub.withDeadlineAfter(5, TimeUnit.SECONDS)
          .append(
              AppendRequest.newBuilder()
                  .addBatches(
                      SeriesPoints.newBuilder()
                          .setSeries(series)
                          .addPoints(Measurement.newBuilder().setTimestampMs(t).setValue(v)))
                  .build())
          .getStored();
    } catch (StatusRuntimeException e) {
      return null;
    }
  }

  private static void appendBatch(
      MemoryHostGrpc.MemoryHostBlockingStub stub, String series, long from, int n) {
    SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(series);
    for (int i = 0; i < n; i++) {
      b.addPoints(Measurement.newBuilder().setTimestampMs(from + i).setValue(Math.sin(from + i)));
    }
    stub.withDeadlineAfter(10, TimeUnit.SECONDS)
        .append(AppendRequest.newBuilder().addBatches(b).build());
  }

  private static void fill(Path file, long bytes) throws IOException {
    byte[] block = new byte[1 << 20];
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(0);
      for (long done = 0; done < bytes; done += block.length) {
        f.write(block, 0, (int) Math.min(block.length, bytes - done));
      }
    }
  }

  private static int run(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor();
  }

  private static void await(BooleanSupplier c, DaemonProcesses procs, String what)
      throws Exception {
    long deadline = System.currentTimeMillis() + 90_000;
    while (!c.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(
            "timed out waiting: " + what + "\n" + procs.log("memory") + procs.log("memory-2"));
      }
      Thread.sleep(200);
    }
  }
}
