package org.netweather.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.protobuf.services.HealthStatusManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.testing.TestCertificates;

/**
 * The four ways TLS goes wrong between a client and a daemon, each against a real server on
 * loopback with certificates made here: every message says TLS and what to do, where gRPC alone
 * says "io exception" or "Network closed for unknown reason".
 */
class TransportFailuresTest {
  @TempDir static Path dir;
  private final List<Server> servers = new ArrayList<>();
  private static ServerCredentials tlsServer;
  private static ChannelCredentials siteClient;
  private static ChannelCredentials otherCaClient;

  @BeforeAll
  static void certificates() throws Exception {
    assumeTrue(TestCertificates.opensslPresent(), "openssl is not installed");
    TestCertificates certs = new TestCertificates(dir);
    Path site = certs.ca("site");
    Path other = certs.ca("other");
    Path[] server = certs.issue("site", "server", "alpha", "nameserver");
    Path[] user = certs.issue("site", "user", "ops", "admin");
    tlsServer =
        TlsServerCredentials.newBuilder()
            .keyManager(server[0].toFile(), server[1].toFile())
            .trustManager(site.toFile())
            .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
            .build();
    siteClient =
        TlsChannelCredentials.newBuilder()
            .keyManager(user[0].toFile(), user[1].toFile())
            .trustManager(site.toFile())
            .build();
    otherCaClient =
        TlsChannelCredentials.newBuilder()
            .keyManager(user[0].toFile(), user[1].toFile())
            .trustManager(other.toFile())
            .build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (Server s : servers) {
      s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private int serve(ServerCredentials credentials) throws Exception {
    Server s =
        Grpc.newServerBuilderForPort(0, credentials)
            .addService(new HealthStatusManager().getHealthService())
            .build()
            .start();
    servers.add(s);
    return s.getPort();
  }

  private static Status call(String address, ChannelCredentials credentials) {
    ManagedChannel channel = Grpc.newChannelBuilder(address, credentials).build();
    try {
      StatusRuntimeException e =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  HealthGrpc.newBlockingStub(channel)
                      .withDeadlineAfter(10, TimeUnit.SECONDS)
                      .check(HealthCheckRequest.getDefaultInstance()));
      return e.getStatus();
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void plaintextClient_againstTlsDaemon_isToldTlsIsRequired() throws Exception {
    String address = "127.0.0.1:" + serve(tlsServer);
    Status s = call(address, InsecureChannelCredentials.create());
    String message = TransportFailures.describe(s, address, true);
    assertTrue(message.startsWith("TLS required: " + address + " speaks TLS"), message);
  }

  @Test
  void plaintextClient_againstDeadAddress_isNotToldAboutTls() throws Exception {
    int port = serve(InsecureServerCredentials.create());
    servers.get(0).shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    String address = "127.0.0.1:" + port;
    String message =
        TransportFailures.describe(
            call(address, InsecureChannelCredentials.create()), address, true);
    assertTrue(message.startsWith("UNAVAILABLE"), message);
    assertTrue(message.contains("refused"), message);
  }

  @Test
  void tlsClient_againstPlaintextDaemon_isToldTheDaemonAnsweredInPlaintext() throws Exception {
    String address = "127.0.0.1:" + serve(InsecureServerCredentials.create());
    String message = TransportFailures.describe(call(address, siteClient), address, false);
    assertTrue(
        message.startsWith("TLS handshake failed: " + address + " answered in plaintext"), message);
  }

  @Test
  void certificateFromAnotherCa_isToldTheCaIsNotTrusted() throws Exception {
    String address = "127.0.0.1:" + serve(tlsServer);
    String message = TransportFailures.describe(call(address, otherCaClient), address, false);
    assertEquals(
        "TLS handshake failed: the certificate of "
            + address
            + " is not signed by a CA this client trusts; is the CA file the site's CA, and was"
            + " the daemon's certificate issued by it?",
        message);
  }

  @Test
  void hostNameMismatch_namesTheCertificatesNamesAndTheNameDialled() throws Exception {
    String address = "localhost:" + serve(tlsServer);
    String message = TransportFailures.describe(call(address, siteClient), address, false);
    assertTrue(
        message.startsWith(
            "TLS host-name mismatch: the certificate of "
                + address
                + " is for alpha, 127.0.0.1, not for 'localhost', the name dialled"),
        message);
  }
}
