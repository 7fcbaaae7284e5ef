package org.netweather.runtime.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.runtime.auth.Caller;
import org.netweather.runtime.auth.CallerInterceptor;
import org.netweather.runtime.auth.Role;
import org.netweather.testing.TestCertificates;

/**
 * Mutual TLS over real loopback sockets with certificates from a real CA: the server sees who calls
 * from the client's certificate, refuses callers without one or from another CA, and serves a
 * certificate renewed on disk without a restart.
 */
class MutualTlsTest {
  @TempDir Path dir;
  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1);
  private Server server;
  private final AtomicReference<Caller> seen = new AtomicReference<>();

  @BeforeAll
  static void needsOpenssl() {
    assumeTrue(TestCertificates.opensslPresent(), "openssl is not installed");
  }

  @AfterEach
  void tearDown() throws Exception {
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    scheduler.shutdownNow();
  }

  /** A health service that records the caller the interceptor established. */
  private final class Recording extends HealthGrpc.HealthImplBase {
    @Override
    public void check(HealthCheckRequest req, StreamObserver<HealthCheckResponse> out) {
      seen.set(Caller.current());
      out.onNext(
          HealthCheckResponse.newBuilder()
              .setStatus(HealthCheckResponse.ServingStatus.SERVING)
              .build());
      out.onCompleted();
    }
  }

  private int serve(TlsCredentials tls) throws Exception {
    server =
        Grpc.newServerBuilderForPort(0, tls.server())
            .addService(ServerInterceptors.intercept(new Recording(), new CallerInterceptor()))
            .build()
            .start();
    return server.getPort();
  }

  private static HealthCheckResponse check(ManagedChannel ch) {
    return check(ch, new AtomicReference<>());
  }

  /** One call on a new connection; {@code serverCert} gets the certificate the server showed. */
  private static HealthCheckResponse check(
      ManagedChannel ch, AtomicReference<X509Certificate> serverCert) {
    ClientInterceptor peek =
        new ClientInterceptor() {
          @Override
          public <Q, R> ClientCall<Q, R> interceptCall(
              MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
            return new ForwardingClientCall.SimpleForwardingClientCall<>(
                next.newCall(method, options)) {
              @Override
              public void start(Listener<R> listener, Metadata headers) {
                super.start(
                    new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(
                        listener) {
                      @Override
                      public void onHeaders(Metadata h) {
                        SSLSession tls = getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
                        try {
                          serverCert.set((X509Certificate) tls.getPeerCertificates()[0]);
                        } catch (SSLPeerUnverifiedException e) {
                          throw new IllegalStateException(e);
                        }
                        super.onHeaders(h);
                      }
                    },
                    headers);
              }
            };
          }
        };
    try {
      return HealthGrpc.newBlockingStub(ClientInterceptors.intercept(ch, peek))
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .check(HealthCheckRequest.getDefaultInstance());
    } finally {
      ch.shutdownNow();
    }
  }

  /** A client with no TLS session to resume, so the handshake shows the current certificate. */
  private io.grpc.ChannelCredentials freshClient(Path[] certAndKey, Path ca) throws Exception {
    return new TlsCredentials(
            new TlsFiles(certAndKey[0], certAndKey[1], ca, Duration.ofHours(1)), scheduler)
        .channel();
  }

  @Test
  void certifiedCaller_isKnownByHostAndRole_othersAreRefused_andARenewedCertificateIsServed()
      throws Exception {
    TestCertificates certs = new TestCertificates(dir);
    Path ca = certs.ca("site-ca");
    Path[] memory = certs.issue("site-ca", "memory", "mem1.example", "memory");
    Path[] sensor = certs.issue("site-ca", "sensor", "alpha.example", "sensor");
    TlsCredentials serverTls =
        new TlsCredentials(
            new TlsFiles(memory[0], memory[1], ca, Duration.ofMillis(200)), scheduler);
    int port = serve(serverTls);
    String target = "localhost:" + port;
    TlsCredentials sensorTls =
        new TlsCredentials(new TlsFiles(sensor[0], sensor[1], ca, Duration.ofHours(1)), scheduler);

    AtomicReference<X509Certificate> shown = new AtomicReference<>();
    assertEquals(
        HealthCheckResponse.ServingStatus.SERVING,
        check(Grpc.newChannelBuilder(target, sensorTls.channel()).build(), shown).getStatus());
    assertEquals("CN=mem1.example", shown.get().getSubjectX500Principal().getName());
    assertEquals("alpha.example", seen.get().host());
    assertEquals(Role.SENSOR, seen.get().role());
    assertTrue(seen.get().authenticated());
    assertEquals("sensor@alpha.example", seen.get().key());

    // No certificate, plaintext, or a certificate from another CA: no call gets through.
    StatusRuntimeException plain =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                check(Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build()));
    assertEquals(Status.Code.UNAVAILABLE, plain.getStatus().getCode());
    Path otherCa = certs.ca("other-ca");
    Path[] stranger = certs.issue("other-ca", "stranger", "mallory.example", "admin");
    TlsCredentials strangerTls =
        new TlsCredentials(
            new TlsFiles(stranger[0], stranger[1], ca, Duration.ofHours(1)), scheduler);
    assertThrows(
        StatusRuntimeException.class,
        () -> check(Grpc.newChannelBuilder(target, strangerTls.channel()).build()));
    assertEquals("alpha.example", seen.get().host(), "the stranger's call never ran");

    // Rotation: a new certificate for the server, dropped in place over the old files.
    Path[] renewed = certs.issue("site-ca", "memory-renewed", "mem1.example", "memory");
    Files.copy(renewed[1], memory[1], StandardCopyOption.REPLACE_EXISTING);
    Files.copy(renewed[0], memory[0], StandardCopyOption.REPLACE_EXISTING);
    java.math.BigInteger oldSerial = shown.get().getSerialNumber();
    long deadline = System.currentTimeMillis() + 5_000;
    do {
      Thread.sleep(100);
      // Calls keep succeeding across the rotation; new connections get the new certificate.
      assertEquals(
          HealthCheckResponse.ServingStatus.SERVING,
          check(Grpc.newChannelBuilder(target, freshClient(sensor, ca)).build(), shown)
              .getStatus());
    } while (shown.get().getSerialNumber().equals(oldSerial)
        && System.currentTimeMillis() < deadline);
    assertNotEquals(oldSerial, shown.get().getSerialNumber(), "the renewed certificate is served");
    serverTls.close();
    sensorTls.close();
    strangerTls.close();
    assertTrue(otherCa.toFile().exists());
  }
}
