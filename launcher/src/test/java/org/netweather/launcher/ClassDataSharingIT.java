package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/nws}'s class-data sharing as a daemon meets it across restarts: the first start
 * records its classes, the next builds the archive (replacing an earlier build's), and later starts
 * map it. A cache directory others may write to is never used.
 */
class ClassDataSharingIT {
  @TempDir Path dir;

  @Test
  @Timeout(360)
  void firstStartRecords_secondBuildsTheArchive_thirdMapsIt() throws Exception {
    Path cds = cacheDir("cds", "rwx------");
    Path stale = Files.writeString(cds.resolve("nameserver-1.jsa"), "an earlier build's archive");
    Map<String, String> env = Map.of("NWS_CDS_DIR", cds.toString());
    Path config = config();
    try (DaemonProcesses procs = new DaemonProcesses(dir.resolve("logs"))) {
      Process first = procs.start("first", env, "nameserver", "--config", config.toString());
      awaitListening(procs, "first");
      List<Path> lists = files(cds, ".classlist." + first.pid());
      assertEquals(1, lists.size(), "class list of the first start in " + files(cds, ""));
      assertTrue(
          Files.readString(lists.get(0)).contains("org/netweather/nameserver/"),
          "the list names the nameserver's classes");
      assertEquals(List.of(stale), files(cds, ".jsa"), "no archive is built by the first start");
      stop(first);

      Process second = procs.start("second", env, "nameserver", "--config", config.toString());
      awaitListening(procs, "second");
      // The builder takes its lock before the daemon starts, and drops it when done.
      await("the archive built", 240, () -> files(cds, ".building").isEmpty());
      List<Path> archives = files(cds, ".jsa");
      assertEquals(1, archives.size(), "one archive, the earlier build's gone: " + archives);
      assertFalse(archives.contains(stale));
      assertEquals(
          List.of(archives.get(0)),
          files(cds, ""),
          "lists and temporary files are removed once the archive is in place");
      stop(second);

      Process third = procs.start("third", env, "nameserver", "--config", config.toString());
      awaitListening(procs, "third");
      String maps = Files.readString(Path.of("/proc/" + third.pid() + "/maps"));
      assertTrue(maps.contains(archives.get(0).toString()), "the JVM maps the archive");
      assertTrue(files(cds, ".classlist").isEmpty(), "nothing recorded once an archive exists");
      stop(third);
    }
  }

  @Test
  @Timeout(120)
  void aCacheDirectoryOthersMayWriteTo_isNotUsed() throws Exception {
    Path cds = cacheDir("shared-cds", "rwxrwxrwx");
    try (DaemonProcesses procs = new DaemonProcesses(dir.resolve("logs"))) {
      Process p =
          procs.start(
              "shared",
              Map.of("NWS_CDS_DIR", cds.toString()),
              "nameserver",
              "--config",
              config().toString());
      awaitListening(procs, "shared");
      assertEquals(List.of(), files(cds, ""), "nothing written to a world-writable directory");
      assertFalse(Files.readString(Path.of("/proc/" + p.pid() + "/cmdline")).contains("XX:Share"));
      stop(p);
    }
  }

  private Path cacheDir(String name, String permissions) throws IOException {
    Path cds = Files.createDirectories(dir.resolve(name));
    Files.setPosixFilePermissions(cds, PosixFilePermissions.fromString(permissions));
    return cds;
  }

  private Path config() throws IOException {
    Path config = dir.resolve("nameserver.yaml");
    if (!Files.exists(config)) {
      Files.writeString(
          config,
          "port: "
              + DaemonProcesses.freePort()
              + "\nmetricsPort: -1\nhost: localhost\ndataDir: "
              + dir.resolve("ns-data")
              + "\n");
    }
    return config;
  }

  private static void awaitListening(DaemonProcesses procs, String name) throws Exception {
    await(
        name + " start listening",
        120,
        () -> {
          try {
            return procs.log(name).contains("listening on port");
          } catch (IOException e) {
            return false;
          }
        });
  }

  private static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      DaemonProcesses.kill9(p);
    }
  }

  private static List<Path> files(Path dir, String containing) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(f -> f.getFileName().toString().contains(containing)).sorted().toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void await(String what, int seconds, BooleanSupplier done)
      throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > until) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(100);
    }
  }
}
