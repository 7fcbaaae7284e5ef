package org.netweather.cli.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.cli.NwsCommand;
import org.netweather.runtime.auth.Caller;
import org.netweather.runtime.auth.CallerInterceptor;
import org.netweather.runtime.auth.Role;
import org.netweather.runtime.tls.TlsCredentials;
import org.netweather.runtime.tls.TlsFiles;
import org.netweather.testing.TestCertificates;
import picocli.CommandLine;

/**
 * {@code nws certs} makes a CA and certificates that work as NetWeather identities over real mutual
 * TLS (and that {@code openssl verify} accepts), and never overwrites a key.
 */
class CertsCommandTest {
  @TempDir Path dir;
  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1);
  private Server server;

  @AfterEach
  void tearDown() throws Exception {
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    scheduler.shutdownNow();
  }

  private record Run(int code, String out, String err) {}

  private static Run nws(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = NwsCommand.commandLine();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int code = cmd.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void caAndIssuedCertificates_proveHostAndRoleOverMutualTls() throws Exception {
    Path ca = dir.resolve("ca");
    Run made = nws("certs", "ca", "--dir", ca.toString(), "--name", "lab-ca");
    assertEquals(0, made.code(), made.err());
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(ca.resolve("ca.key"))));
    Run mem =
        nws(
            "certs",
            "issue",
            "mem1.lab",
            "--role",
            "memory",
            "--dir",
            ca.toString(),
            "--ip",
            "127.0.0.1",
            "--dns",
            "localhost");
    assertEquals(0, mem.code(), mem.err());
    assertTrue(mem.out().contains("memory@mem1.lab"), mem.out());
    Run sensor =
        nws(
            "certs",
            "issue",
            "alpha.lab",
            "--role",
            "sensor",
            "--dir",
            ca.toString(),
            "--out",
            dir.resolve("alpha").toString(),
            "--days",
            "30");
    assertEquals(0, sensor.code(), sensor.err());

    if (TestCertificates.opensslPresent()) {
      Process verify =
          new ProcessBuilder(
                  "openssl",
                  "verify",
                  "-CAfile",
                  ca.resolve("ca.crt").toString(),
                  "-purpose",
                  "sslserver",
                  ca.resolve("mem1.lab-memory.crt").toString())
              .redirectErrorStream(true)
              .start();
      String said = new String(verify.getInputStream().readAllBytes());
      assertEquals(0, verify.waitFor(), said);
    }

    AtomicReference<Caller> seen = new AtomicReference<>();
    TlsCredentials serverTls =
        new TlsCredentials(
            new TlsFiles(
                ca.resolve("mem1.lab-memory.crt"),
                ca.resolve("mem1.lab-memory.key"),
                ca.resolve("ca.crt"),
                Duration.ofHours(1)),
            scheduler);
    server =
        Grpc.newServerBuilderForPort(0, serverTls.server())
            .addService(
                ServerInterceptors.intercept(
                    new HealthGrpc.HealthImplBase() {
                      @Override
                      public void check(
                          HealthCheckRequest req, StreamObserver<HealthCheckResponse> out) {
                        seen.set(Caller.current());
                        out.onNext(HealthCheckResponse.getDefaultInstance());
                        out.onCompleted();
                      }
                    },
                    new CallerInterceptor()))
            .build()
            .start();
    Path alpha = dir.resolve("alpha");
    TlsCredentials clientTls =
        new TlsCredentials(
            new TlsFiles(
                alpha.resolve("alpha.lab-sensor.crt"),
                alpha.resolve("alpha.lab-sensor.key"),
                ca.resolve("ca.crt"),
                Duration.ofHours(1)),
            scheduler);
    ManagedChannel ch =
        Grpc.newChannelBuilder("localhost:" + server.getPort(), clientTls.channel()).build();
    try {
      HealthGrpc.newBlockingStub(ch)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .check(HealthCheckRequest.getDefaultInstance());
    } finally {
      ch.shutdownNow();
    }
    assertEquals("alpha.lab", seen.get().host());
    assertEquals(Role.SENSOR, seen.get().role());
    assertTrue(seen.get().authenticated());

    // A second CA's certificate is refused by the first's daemons.
    Path other = dir.resolve("other");
    assertEquals(0, nws("certs", "ca", "--dir", other.toString()).code());
    assertEquals(
        0, nws("certs", "issue", "mallory", "--role", "admin", "--dir", other.toString()).code());
    TlsCredentials strangerTls =
        new TlsCredentials(
            new TlsFiles(
                other.resolve("mallory-admin.crt"),
                other.resolve("mallory-admin.key"),
                ca.resolve("ca.crt"),
                Duration.ofHours(1)),
            scheduler);
    seen.set(null);
    ManagedChannel strange =
        Grpc.newChannelBuilder("localhost:" + server.getPort(), strangerTls.channel()).build();
    try {
      assertThrows(
          StatusRuntimeException.class,
          () ->
              HealthGrpc.newBlockingStub(strange)
                  .withDeadlineAfter(10, TimeUnit.SECONDS)
                  .check(HealthCheckRequest.getDefaultInstance()));
    } finally {
      strange.shutdownNow();
    }
    assertEquals(null, seen.get());
    serverTls.close();
    clientTls.close();
    strangerTls.close();
  }

  @Test
  void existingKeysAreNeverOverwritten_andBadInputIsNamed() throws Exception {
    Path ca = dir.resolve("ca");
    assertEquals(0, nws("certs", "ca", "--dir", ca.toString()).code());
    String key = Files.readString(ca.resolve("ca.key"));
    Run again = nws("certs", "ca", "--dir", ca.toString());
    assertNotEquals(0, again.code());
    assertTrue(again.err().contains("ca.crt"), again.err());
    assertEquals(key, Files.readString(ca.resolve("ca.key")), "the CA key is untouched");

    Run role = nws("certs", "issue", "h", "--role", "root", "--dir", ca.toString());
    assertEquals(2, role.code());
    assertTrue(role.err().contains("root"), role.err());
    assertFalse(Files.exists(ca.resolve("h-root.crt")));

    Run noCa = nws("certs", "issue", "h", "--role", "sensor", "--dir", dir.resolve("x").toString());
    assertNotEquals(0, noCa.code());
    assertTrue(noCa.err().contains("nws certs ca"), noCa.err());

    assertEquals(0, nws("certs", "issue", "h", "--role", "sensor", "--dir", ca.toString()).code());
    String issued = Files.readString(ca.resolve("h-sensor.key"));
    assertNotEquals(
        0, nws("certs", "issue", "h", "--role", "sensor", "--dir", ca.toString()).code());
    assertEquals(issued, Files.readString(ca.resolve("h-sensor.key")));
    Run days =
        nws("certs", "issue", "g", "--role", "sensor", "--dir", ca.toString(), "--days", "0");
    assertNotEquals(0, days.code());
    assertTrue(days.err().contains("--days"), days.err());
  }
}
