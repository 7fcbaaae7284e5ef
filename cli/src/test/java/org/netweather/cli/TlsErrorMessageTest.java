package org.netweather.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.Grpc;
import io.grpc.Server;
import io.grpc.TlsServerCredentials;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.cli.query.StatusCommand;
import org.netweather.testing.TestCertificates;
import picocli.CommandLine;

/**
 * A command run without TLS against a site that requires it: gRPC alone says "Network closed for
 * unknown reason"; the command says TLS is required and which variables set it.
 */
class TlsErrorMessageTest {
  @TempDir Path dir;

  @Test
  void plaintextCommand_againstTlsNameserver_saysTlsIsRequired() throws Exception {
    assumeTrue(TestCertificates.opensslPresent(), "openssl is not installed");
    TestCertificates certs = new TestCertificates(dir);
    Path ca = certs.ca("site");
    Path[] ns = certs.issue("site", "ns", "localhost", "nameserver");
    Server server =
        Grpc.newServerBuilderForPort(
                0,
                TlsServerCredentials.newBuilder()
                    .keyManager(ns[0].toFile(), ns[1].toFile())
                    .trustManager(ca.toFile())
                    .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
                    .build())
            .addService(new HealthStatusManager().getHealthService())
            .build()
            .start();
    try {
      String target = "127.0.0.1:" + server.getPort();
      StringWriter err = new StringWriter();
      CommandLine cmd = new CommandLine(new StatusCommand());
      cmd.setExecutionExceptionHandler(new ErrorHandler());
      cmd.setOut(new PrintWriter(new StringWriter()));
      cmd.setErr(new PrintWriter(err));
      assertEquals(ErrorHandler.FAILED, cmd.execute("--nameserver", target));
      assertTrue(
          err.toString()
              .startsWith(
                  "nws status: UNAVAILABLE: TLS required: "
                      + target
                      + " speaks TLS and closed this plaintext connection"),
          err.toString());
      assertTrue(err.toString().contains("NWS_TLS_CERT"), err.toString());
    } finally {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
