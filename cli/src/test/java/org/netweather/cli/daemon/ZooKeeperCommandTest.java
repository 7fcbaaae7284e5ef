package org.netweather.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.cli.ErrorHandler;
import org.netweather.registry.DaemonRecord;
import org.netweather.registry.Presence;
import org.netweather.registry.RegistryLocation;
import org.netweather.registry.zookeeper.ZooKeeperRegistry;
import picocli.CommandLine;

/** {@code nws zookeeper} serves a real ZooKeeper that a registry connects to. */
class ZooKeeperCommandTest {
  @TempDir Path dir;

  @Test
  void zookeeper_alone_servesARegistry() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    ZooKeeperCommand command = new ZooKeeperCommand();
    CommandLine cmd = new CommandLine(command);
    StringWriter err = new StringWriter();
    cmd.setErr(new PrintWriter(err, true));
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> exit =
          thread.submit(
              () ->
                  cmd.execute(
                      "--port", String.valueOf(port), "--data-dir", dir.resolve("zk").toString()));
      RegistryLocation where = RegistryLocation.parse("zookeeper://127.0.0.1:" + port + "/site");
      try (ZooKeeperRegistry a = ZooKeeperRegistry.open(where);
          ZooKeeperRegistry b = ZooKeeperRegistry.open(where)) {
        DaemonRecord memory = new DaemonRecord("memory@alpha", "memory", "alpha:8050", Map.of());
        a.putDaemon(memory);
        assertEquals(Optional.of(memory), b.daemon("memory@alpha"));
        try (Presence p = a.join("nameservers", "ns1", Map.of())) {
          assertEquals(List.of("ns1"), b.members("nameservers").stream().map(m -> m.id()).toList());
        }
      }
      command.close();
      assertEquals(0, exit.get(30, TimeUnit.SECONDS));
    } finally {
      command.close();
      thread.shutdownNow();
    }
    String cfg = Files.readString(dir.resolve("zk/zoo.cfg"));
    assertTrue(cfg.contains("clientPort=" + port + "\n"), cfg);
    assertTrue(err.toString().contains("zookeeper on port " + port + " (alone)"), err.toString());
  }

  @Test
  void zookeeper_idWithoutServers_isAUsageError() {
    CommandLine cmd = new CommandLine(new ZooKeeperCommand());
    StringWriter err = new StringWriter();
    cmd.setErr(new PrintWriter(err, true));
    assertEquals(ErrorHandler.USAGE, cmd.execute("--id", "2", "--data-dir", dir.toString()));
    assertTrue(err.toString().contains("--id 2 needs --servers"), err.toString());
    StringWriter err2 = new StringWriter();
    cmd.setErr(new PrintWriter(err2, true));
    assertEquals(
        ErrorHandler.USAGE,
        cmd.execute("--id", "4", "--servers", "a:2888:3888,b:2888:3888,c:2888:3888"));
    assertTrue(err2.toString().contains("must be 1 to 3"), err2.toString());
  }

  @Test
  void zookeeper_tlsWithAMissingFile_isAUsageErrorNamingIt() throws Exception {
    Path cert = Files.writeString(dir.resolve("zk.crt"), "-----BEGIN CERTIFICATE-----\n");
    Path ca = Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\n");
    Path key = dir.resolve("zk.key");
    CommandLine cmd = new CommandLine(new ZooKeeperCommand());
    StringWriter err = new StringWriter();
    cmd.setErr(new PrintWriter(err, true));
    assertEquals(
        ErrorHandler.USAGE,
        cmd.execute(
            "--data-dir",
            dir.resolve("zk").toString(),
            "--tls-cert",
            cert.toString(),
            "--tls-key",
            key.toString(),
            "--tls-ca",
            ca.toString()));
    assertTrue(err.toString().contains("tlsKey " + key + ": no such file"), err.toString());
    assertTrue(Files.notExists(dir.resolve("zk/zoo.cfg")), "nothing is started");

    StringWriter err2 = new StringWriter();
    cmd.setErr(new PrintWriter(err2, true));
    assertEquals(ErrorHandler.USAGE, cmd.execute("--tls-cert", cert.toString()));
    assertTrue(err2.toString().contains("missing tlsKey, tlsCa"), err2.toString());
  }
}
