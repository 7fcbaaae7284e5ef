package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secured site as an operator runs it: a CA and certificates made with {@code nws certs}, then
 * nameserver, memory-host, forecaster, proxy and two sensors, each its own {@code bin/nws} process
 * with mutual TLS from its config file and awaited with {@code nws ready}. The attacks of an
 * outsider and of a certified but malicious sensor are repeated through {@code nws} and refused,
 * while the real sensors' measurements keep flowing into forecasts and the cluster snapshot.
 */
class SecuredSuiteIT {
  private static final Path HOME =
      Path.of(System.getProperty("netweather.home", "..")).toAbsolutePath().normalize();
  @TempDir Path dir;
  private final List<Process> daemons = new ArrayList<>();

  private record Result(int exit, String out, String err) {
    String all() {
      return out + err;
    }
  }

  @AfterEach
  void stop() throws Exception {
    for (Process p : daemons) {
      p.destroy();
    }
    for (Process p : daemons) {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  private Result nws(Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(HOME.resolve("bin/nws").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().remove("NWS_REBUILD");
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    String err = read(p.getErrorStream());
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "nws " + String.join(" ", args) + " hung");
    return new Result(p.exitValue(), out.join(), err);
  }

  private static String read(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** The environment that makes nws present {@code name}'s certificate. */
  private Map<String, String> as(String name) {
    Path certs = dir.resolve("certs");
    Map<String, String> env = new HashMap<>();
    env.put("NWS_TLS_CERT", certs.resolve(name + ".crt").toString());
    env.put("NWS_TLS_KEY", certs.resolve(name + ".key").toString());
    env.put("NWS_TLS_CA", certs.resolve("ca.crt").toString());
    return env;
  }

  private void start(String command, String daemon, String certName, String yaml) throws Exception {
    Path certs = dir.resolve("certs");
    Path config = dir.resolve(certName + ".yaml");
    Files.writeString(
        config,
        yaml
            + "metricsPort: -1\n"
            + "tlsCert: "
            + certs.resolve(certName + ".crt")
            + "\ntlsKey: "
            + certs.resolve(certName + ".key")
            + "\ntlsCa: "
            + certs.resolve("ca.crt")
            + "\n");
    ProcessBuilder pb =
        new ProcessBuilder(
                HOME.resolve("bin/nws").toString(), command, "--config", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(certName + ".log").toFile());
    pb.environment().remove("NWS_REBUILD");
    daemons.add(pb.start());
    Result ready = nws(Map.of(), "ready", "--timeout", "90", daemon, "--config", config.toString());
    assertEquals(0, ready.exit(), ready.all() + Files.readString(dir.resolve(certName + ".log")));
  }

  @Test
  @Timeout(600)
  void attacksAreRefused_whileRealMeasurementsFlowIntoForecasts() throws Exception {
    String ca = dir.resolve("certs").toString();
    assertEquals(0, nws(Map.of(), "certs", "ca", "--dir", ca).exit());
    for (String[] who :
        new String[][] {
          {"localhost", "nameserver"},
          {"localhost", "memory"},
          {"localhost", "forecaster"},
          {"localhost", "proxy"},
          {"s1", "sensor"},
          {"s2", "sensor"},
          {"ops", "admin"}
        }) {
      Result r =
          nws(
              Map.of(),
              "certs",
              "issue",
              who[0],
              "--role",
              who[1],
              "--dir",
              ca,
              "--ip",
              "127.0.0.1",
              "--dns",
              "localhost",
              "--name",
              who[0].equals("localhost") ? who[1] : who[0]);
      assertEquals(0, r.exit(), r.all());
    }
    int ns = freePort();
    String nsAddress = "localhost:" + ns;
    String common = "nameserver: " + nsAddress + "\nhost: localhost\n";
    start(
        "nameserver",
        "nameserver",
        "nameserver",
        "port: " + ns + "\nhost: localhost\n" + "dataDir: " + dir.resolve("ns-data") + "\n");
    start(
        "memory",
        "memory-host",
        "memory",
        "port: " + freePort() + "\n" + common + "dataDir: " + dir.resolve("mem-data") + "\n");
    start("forecaster", "forecaster", "forecaster", "port: " + freePort() + "\n" + common);
    start("proxy", "proxy", "proxy", "port: " + freePort() + "\n" + common + "cluster: lab\n");
    for (String s : List.of("s1", "s2")) {
      start(
          "sensor",
          "sensor",
          s,
          "port: "
              + freePort()
              + "\nprobePort: "
              + freePort()
              + "\nnameserver: "
              + nsAddress
              + "\nhost: "
              + s
              + "\nadvertise: 127.0.0.1\nbind: 127.0.0.1\ncluster: lab\ncpuPeriodSeconds: 2\n"
              + "dataDir: "
              + dir.resolve(s + "-data")
              + "\ndeliveryIntervalMs: 500\n");
    }
    Map<String, String> admin = as("ops");
    Map<String, String> mallory = as("s1"); // a real sensor's certificate, used for harm
    Result clique =
        nws(
            admin,
            "clique",
            "create",
            "lab",
            "--members",
            "s1,s2",
            "--period",
            "10s",
            "--nameserver",
            nsAddress);
    assertEquals(0, clique.exit(), clique.all());

    // Nothing without a certificate of this site.
    Result plain = nws(Map.of(), "hosts", "--nameserver", nsAddress);
    assertEquals(1, plain.exit());
    assertTrue(plain.err().contains("UNAVAILABLE"), plain.all());
    // A certified sensor cannot forge another host's series, write an absurd value,
    // rewrite the cliques, or delete series.
    Result forged = nws(mallory, "put", "cpu.availability:s2", "0.01", "--nameserver", nsAddress);
    assertTrue(forged.err().contains("PERMISSION_DENIED"), forged.all());
    Result absurd = nws(mallory, "put", "tcp.bandwidth:s1->s2", "1e308", "--nameserver", nsAddress);
    assertEquals(2, absurd.exit(), absurd.all());
    Result tamper =
        nws(
            mallory,
            "clique",
            "create",
            "lab",
            "--members",
            "s1,127.0.0.1",
            "--nameserver",
            nsAddress);
    assertTrue(tamper.err().contains("PERMISSION_DENIED"), tamper.all());
    Result delete = nws(mallory, "series", "delete", "cpu.*", "--nameserver", nsAddress);
    assertTrue(delete.err().contains("PERMISSION_DENIED"), delete.all());
    Result deep =
        nws(
            admin,
            "search",
            "(&".repeat(3_000) + "(kind=memory)" + ")".repeat(3_000),
            "--nameserver",
            nsAddress);
    assertEquals(2, deep.exit(), deep.all());
    assertTrue(deep.err().contains("INVALID_ARGUMENT"), deep.all());

    // A fake memory-host with a sensor's certificate never gets into the directory.
    Path fakeConfig = dir.resolve("fake.yaml");
    Files.writeString(
        fakeConfig,
        "port: "
            + freePort()
            + "\nmetricsPort: -1\n"
            + common
            + "dataDir: "
            + dir.resolve("fake-data")
            + "\ntlsCert: "
            + mallory.get("NWS_TLS_CERT")
            + "\ntlsKey: "
            + mallory.get("NWS_TLS_KEY")
            + "\ntlsCa: "
            + mallory.get("NWS_TLS_CA")
            + "\n");
    Process fake =
        new ProcessBuilder(
                HOME.resolve("bin/nws").toString(), "memory", "--config", fakeConfig.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("fake.log").toFile())
            .start();
    daemons.add(fake);

    // Meanwhile the real sensors' measurements flow: forecasts and the lab's matrix fill.
    long deadline = System.currentTimeMillis() + 240_000;
    String snapshot = "";
    while (System.currentTimeMillis() < deadline) {
      snapshot =
          nws(admin, "snapshot", "--cluster", "lab", "--json", "--nameserver", nsAddress).out();
      if (snapshot.contains("\"src\": \"s1\"")
          && snapshot.contains("\"src\": \"s2\"")
          && snapshot.contains("bandwidth")) {
        break;
      }
      Thread.sleep(3_000);
    }
    assertTrue(snapshot.contains("\"src\": \"s2\"") && snapshot.contains("bandwidth"), snapshot);
    Result forecast =
        nws(admin, "forecast", "cpu.availability:s2", "--json", "--nameserver", nsAddress);
    assertEquals(0, forecast.exit(), forecast.all());
    Result history =
        nws(admin, "history", "cpu.availability:s2", "--json", "--nameserver", nsAddress);
    assertFalse(history.out().contains("0.01"), "the forged value is nowhere: " + history.out());
    Result hosts = nws(admin, "hosts", "--json", "--nameserver", nsAddress);
    assertEquals(1, count(hosts.out(), "\"kind\": \"memory\""), hosts.out());
    assertTrue(
        Files.readString(dir.resolve("fake.log")).contains("needs a memory certificate"),
        "the fake memory-host was told why");
    Result status = nws(admin, "status", "--nameserver", nsAddress);
    assertTrue(status.out().contains("sensor@s1"), status.all());
    assertTrue(status.out().contains("memory@localhost"), status.all());
    assertFalse(status.out().contains(" no "), "every daemon answers over TLS:\n" + status.out());
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
