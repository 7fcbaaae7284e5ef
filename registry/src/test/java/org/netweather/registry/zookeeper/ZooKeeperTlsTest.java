package org.netweather.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.registry.DaemonRecord;
import org.netweather.registry.Presence;
import org.netweather.registry.RegistryException;
import org.netweather.registry.RegistryLocation;
import org.netweather.registry.StaleVersionException;
import org.netweather.registry.Versioned;
import org.netweather.testing.TestCertificates;

/**
 * A real ZooKeeper server ({@link ZooKeeperServer}, as {@code nws zookeeper --tls-*} runs it) with
 * a secure client port only: a registry with the site's CA and its own certificate works; one with
 * the wrong CA, a certificate from another CA, or no TLS at all fails within its bounded wait, with
 * a message naming the registry.
 */
class ZooKeeperTlsTest {
  /** Short, so that the refused connections fail fast; the server here answers in milliseconds. */
  private static final Duration CONNECT = Duration.ofSeconds(3);

  @TempDir static Path dir;

  private static Properties before;
  private static ZooKeeperServer server;
  private static ExecutorService serving;
  private static Future<?> served;
  private static int port;
  private static RegistryTls client;
  private static RegistryTls trustsOtherCa;
  private static RegistryTls certFromOtherCa;

  @BeforeAll
  static void startSecureServer() throws Exception {
    assumeTrue(TestCertificates.opensslPresent(), "openssl is needed to make the test CA");
    // ZooKeeper's server takes its ssl.* settings as system properties: put them back afterwards.
    before = (Properties) System.getProperties().clone();
    TestCertificates certs = new TestCertificates(dir);
    Path ca = certs.ca("ca");
    Path other = certs.ca("other");
    Path[] zk = certs.issue("ca", "zk", "localhost", null);
    Path[] nws = certs.issue("ca", "nameserver", "ns1.example", null);
    Path[] stranger = certs.issue("other", "stranger", "ns1.example", null);
    client = new RegistryTls(nws[0], nws[1], ca);
    trustsOtherCa = new RegistryTls(nws[0], nws[1], other);
    certFromOtherCa = new RegistryTls(stranger[0], stranger[1], ca);
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    server =
        new ZooKeeperServer(
            new ZooKeeperServer.Settings(
                port,
                dir.resolve("zk"),
                0,
                List.of(),
                Optional.of(new RegistryTls(zk[0], zk[1], ca))));
    serving = Executors.newSingleThreadExecutor();
    served =
        serving.submit(
            () -> {
              server.run();
              return null;
            });
    awaitListening(port);
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
      served.get(30, TimeUnit.SECONDS);
      serving.shutdownNow();
    }
    if (before != null) {
      System.setProperties(before);
    }
  }

  private static RegistryLocation location(String scheme) {
    return RegistryLocation.parse(scheme + "://127.0.0.1:" + port + "/site");
  }

  @Test
  void rightCa_connectsOverTls_andServesTheRegistry() {
    RegistryLocation where = location("zookeeper+tls");
    try (ZooKeeperRegistry a = ZooKeeperRegistry.open(where, Optional.of(client));
        ZooKeeperRegistry b = ZooKeeperRegistry.open(where, Optional.of(client))) {
      DaemonRecord memory = new DaemonRecord("memory@alpha", "memory", "alpha:8050", Map.of());
      a.putDaemon(memory);
      assertEquals(Optional.of(memory), b.daemon("memory@alpha"));
      try (Presence p = a.join("nameservers", "ns1", Map.of())) {
        assertEquals(List.of("ns1"), b.members("nameservers").stream().map(m -> m.id()).toList());
      }
      byte[] one = "1".getBytes(StandardCharsets.UTF_8);
      int version = a.compareAndSet("placement", one, Versioned.ABSENT);
      Versioned seen = b.value("placement").orElseThrow();
      assertEquals("1", new String(seen.data(), StandardCharsets.UTF_8));
      assertEquals(version, seen.version());
      assertThrows(
          StaleVersionException.class,
          () -> b.compareAndSet("placement", one, Versioned.ABSENT),
          "a second create must conflict");
    }
  }

  @Test
  void wrongCa_failsWithinItsWait_namingTheRegistry() {
    RegistryException e = refused(location("zookeeper+tls"), Optional.of(trustsOtherCa));
    assertTrue(e.getMessage().contains("zookeeper+tls://127.0.0.1:" + port), e.getMessage());
    assertTrue(e.getMessage().contains("chains to tlsCa"), e.getMessage());
  }

  @Test
  void certificateFromAnotherCa_isRefusedByTheServer() {
    RegistryException e = refused(location("zookeeper+tls"), Optional.of(certFromOtherCa));
    assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
  }

  @Test
  void plaintext_toTheSecurePort_failsSayingToUseTls() {
    RegistryException e = refused(location("zookeeper"), Optional.empty());
    assertTrue(e.getMessage().contains("zookeeper://127.0.0.1:" + port), e.getMessage());
    assertTrue(e.getMessage().contains("zookeeper+tls://"), e.getMessage());
  }

  @Test
  void tlsLocation_withoutFiles_isRefusedBeforeConnecting() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ZooKeeperRegistry.open(location("zookeeper+tls"), Optional.empty()));
    assertTrue(e.getMessage().contains("registry 'zookeeper+tls://"), e.getMessage());
    assertTrue(e.getMessage().contains("tlsCert, tlsKey and tlsCa"), e.getMessage());
  }

  @Test
  void badFiles_areNamed() throws IOException {
    Path missing = dir.resolve("nope.crt");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RegistryTls(missing, client.key(), client.ca()));
    assertEquals("tlsCert " + missing + ": no such file", e.getMessage());

    Path notPem = Files.writeString(dir.resolve("ca.txt"), "hello\n");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RegistryTls(client.cert(), client.key(), notPem));
    assertEquals("tlsCa " + notPem + ": not a PEM file", e.getMessage());

    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RegistryTls(client.cert(), client.cert(), client.ca()));
    assertTrue(e.getMessage().startsWith("tlsKey " + client.cert()), e.getMessage());
    assertTrue(e.getMessage().contains("PKCS#8"), e.getMessage());

    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RegistryTls.of(client.cert().toString(), "", client.ca().toString()));
    assertEquals("TLS needs tlsCert, tlsKey and tlsCa together; missing tlsKey", e.getMessage());
    assertEquals(Optional.empty(), RegistryTls.of("", " ", null));
  }

  @Test
  void ensembleConfig_withTls_hasASecurePortOnly_andTlsBetweenMembers() {
    String cfg =
        ZooKeeperServer.config(
            new ZooKeeperServer.Settings(
                2281,
                dir.resolve("member"),
                2,
                List.of("zk1:2888:3888", "zk2:2888:3888", "zk3:2888:3888"),
                Optional.of(client)));
    assertTrue(cfg.contains("\nsecureClientPort=2281\n"), cfg);
    assertTrue(cfg.lines().noneMatch(l -> l.startsWith("clientPort=")), cfg);
    assertTrue(cfg.contains("\nssl.clientAuth=need\n"), cfg);
    assertTrue(cfg.contains("\nsslQuorum=true\n"), cfg);
    assertTrue(
        cfg.contains("\nssl.quorum.trustStore.location=" + client.ca().toAbsolutePath()), cfg);
  }

  @Test
  void keyStore_isTheKeyThenTheChain_readableByItsOwnerOnly() throws IOException {
    Path store = client.writeKeyStore(dir.resolve("ks").resolve("key-and-chain.pem"));
    String text = Files.readString(store);
    assertTrue(text.startsWith("-----BEGIN PRIVATE KEY-----"), text);
    assertTrue(text.contains("-----BEGIN CERTIFICATE-----"), text);
    assertEquals(
        "rw-------",
        java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(store)));
  }

  private static RegistryException refused(RegistryLocation where, Optional<RegistryTls> tls) {
    // The connect timeout bounds the wait; the preemptive limit only guards against a hang.
    return assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () ->
            assertThrows(
                RegistryException.class,
                () -> {
                  try (ZooKeeperRegistry r =
                      ZooKeeperRegistry.open(
                          where, tls, ZooKeeperRegistry.SESSION_TIMEOUT, CONNECT)) {
                    r.daemons();
                  }
                }));
  }

  private static void awaitListening(int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return;
      } catch (IOException e) {
        if (served.isDone()) {
          served.get(); // the server failed: say why
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("ZooKeeper's secure port " + port + " never opened", e);
        }
        Thread.sleep(50); // polling a port another thread opens; there is no event to wait on
      }
    }
  }
}
