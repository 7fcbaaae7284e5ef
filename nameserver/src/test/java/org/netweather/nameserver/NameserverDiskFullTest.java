package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.NameserverGrpc.NameserverBlockingStub;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.Registration;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;

/**
 * A nameserver whose journal's disk fills up answers RESOURCE_EXHAUSTED naming the journal, as a
 * memory-host with a full disk does, not INTERNAL. The disk is a real one: a small tmpfs mounted
 * for the test (root only; unmounted afterwards).
 */
class NameserverDiskFullTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path tmp;

  private Path mount;
  private Nameserver ns;

  @AfterEach
  void tearDown() throws Exception {
    try {
      if (ns != null) {
        ns.close(); // compacts, which the full disk refuses too
      }
    } catch (IOException e) {
      // expected on the full disk; the mount goes anyway
    } finally {
      if (mount != null) {
        run("umount", "-l", mount.toString());
      }
    }
  }

  private static int run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return -1;
    }
    return p.exitValue();
  }

  @Test
  void register_journalDiskFull_resourceExhaustedNamingTheJournal() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "mounting a tmpfs needs root");
    Path dir = Files.createDirectories(tmp.resolve("small"));
    assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir.toString()) == 0);
    mount = dir;
    ns = Nameserver.open(dir.resolve("ns"), FakeClock.atDefaultStart());
    NameserverBlockingStub stub =
        NameserverGrpc.newBlockingStub(grpc.inProcess(new NameserverService(ns)));
    String big = "x".repeat(1000);
    StatusRuntimeException refused = null;
    for (int i = 0; i < 1000 && refused == null; i++) {
      Registration r =
          Registration.newBuilder()
              .setName("sensor@host" + i)
              .setKind("sensor")
              .setAddress("localhost:1")
              .putAttributes("a", big)
              .putAttributes("b", big)
              .putAttributes("c", big)
              .putAttributes("d", big)
              .build();
      try {
        stub.register(RegisterRequest.newBuilder().setRegistration(r).setTtlSeconds(60).build());
      } catch (StatusRuntimeException e) {
        refused = e;
      }
    }
    assertTrue(refused != null, "256 KiB cannot hold 1000 registrations of 4 KB");
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode(), refused.toString());
    String why = refused.getStatus().getDescription();
    assertTrue(why.contains(dir.resolve("ns").toString()), why);
    assertTrue(why.contains("No space left on device"), why);
  }
}
