package org.netweather.registry;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Registry} must do, whatever keeps the state: each implementation's test extends
 * this class and says how to open it, how to open a second instance on the same state (another
 * process of the site), and how to end a session.
 */
public abstract class RegistryContract {
  /** How long a change may take to reach another instance; generous for a loaded machine. */
  protected static final Duration PROPAGATION = Duration.ofSeconds(20);

  private final List<Registry> opened = new ArrayList<>();

  /** Opens the registry on this test's state, new or as left by registries closed before. */
  protected abstract Registry openRegistry() throws Exception;

  /** A second instance on the same state as {@code first}, with a session of its own. */
  protected abstract Registry openPeer(Registry first) throws Exception;

  /** Ends {@code registry}'s session on the shared state, as an expiry does. */
  protected abstract void endSession(Registry registry) throws Exception;

  protected final Registry open() throws Exception {
    Registry r = openRegistry();
    opened.add(r);
    return r;
  }

  protected final Registry peer(Registry first) throws Exception {
    Registry r = openPeer(first);
    opened.add(r);
    return r;
  }

  @AfterEach
  void closeRegistries() {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  static DaemonRecord daemon(String name, String kind) {
    return new DaemonRecord(name, kind, name + ":8100", Map.of("version", "1"));
  }

  static HostRecord host(String cluster, String host) {
    return new HostRecord(cluster, host, host + ":8060", Map.of("rack", "r1"));
  }

  static CliqueRecord clique(String name, String... members) {
    return new CliqueRecord(
        name, List.of(members), 60, List.of("tcp.latency"), Map.of("bandwidth.bytes", "65536"));
  }

  @Test
  void records_surviveReopen() throws Exception {
    Registry r = open();
    r.putDaemon(daemon("memory@alpha", "memory"));
    r.putDaemon(daemon("forecaster@beta", "forecaster"));
    r.putHost(host("c1", "alpha"));
    r.putHost(host("c1", "beta"));
    r.putHost(host("c2", "gamma"));
    r.putClique(clique("c1-net", "alpha", "beta"));
    int v = r.compareAndSet("placement/memory/0", "mh1".getBytes(UTF_8), Versioned.ABSENT);
    r.close();

    Registry again = open();
    assertEquals(
        List.of(daemon("forecaster@beta", "forecaster"), daemon("memory@alpha", "memory")),
        again.daemons());
    assertEquals(Optional.of(daemon("memory@alpha", "memory")), again.daemon("memory@alpha"));
    assertEquals(Set.of("c1", "c2"), again.clusters());
    assertEquals(List.of(host("c1", "alpha"), host("c1", "beta")), again.hosts("c1"));
    assertEquals(List.of(clique("c1-net", "alpha", "beta")), again.cliques());
    assertEquals(
        Optional.of(new Versioned("mh1".getBytes(UTF_8), v)), again.value("placement/memory/0"));
  }

  @Test
  void remove_dropsOnlyWhatItNames() throws Exception {
    Registry r = open();
    r.putDaemon(daemon("memory@alpha", "memory"));
    r.putHost(host("c1", "alpha"));
    r.putHost(host("c2", "beta"));
    r.putClique(clique("c1-net", "alpha", "beta"));

    assertTrue(r.removeDaemon("memory@alpha"));
    assertFalse(r.removeDaemon("memory@alpha"));
    assertTrue(r.removeHost("c2", "beta"));
    assertFalse(r.removeHost("c1", "beta"));
    assertTrue(r.removeClique("c1-net"));
    assertFalse(r.removeClique("c1-net"));

    assertEquals(List.of(), r.daemons());
    assertEquals(Optional.empty(), r.daemon("memory@alpha"));
    assertEquals(Set.of("c1"), r.clusters());
    assertEquals(List.of(host("c1", "alpha")), r.hosts("c1"));
    assertEquals(List.of(), r.hosts("c2"));
    assertEquals(List.of(), r.cliques());
  }

  @Test
  void compareAndSet_refusesStaleVersion() throws Exception {
    Registry a = open();
    Registry b = peer(a);
    byte[] one = "one".getBytes(UTF_8);
    int v0 = a.compareAndSet("placement/memory/3", one, Versioned.ABSENT);
    assertThrows(
        StaleVersionException.class,
        () -> b.compareAndSet("placement/memory/3", one, Versioned.ABSENT));

    // Both read the same version; the first write wins, the second is refused and changes nothing.
    int seenByB = b.value("placement/memory/3").orElseThrow().version();
    assertEquals(v0, seenByB);
    int v1 = a.compareAndSet("placement/memory/3", "two".getBytes(UTF_8), v0);
    assertNotEquals(v0, v1);
    assertThrows(
        StaleVersionException.class,
        () -> b.compareAndSet("placement/memory/3", "three".getBytes(UTF_8), seenByB));
    assertArrayEquals("two".getBytes(UTF_8), b.value("placement/memory/3").orElseThrow().data());
    assertEquals(v1, b.value("placement/memory/3").orElseThrow().version());
    assertThrows(
        StaleVersionException.class,
        () -> a.compareAndSet("placement/memory/9", one, 0),
        "a key that does not exist is at no version");
  }

  @Test
  void putHost_fromTwoInstancesAtOnce_keepsEveryHostOfTheCluster() throws Exception {
    Registry a = open();
    Registry b = peer(a);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> fa =
          pool.submit(
              () -> {
                for (int i = 0; i < 25; i++) {
                  a.putHost(host("c1", "a" + i));
                }
              });
      Future<?> fb =
          pool.submit(
              () -> {
                for (int i = 0; i < 25; i++) {
                  b.putHost(host("c1", "b" + i));
                }
              });
      fa.get(60, TimeUnit.SECONDS);
      fb.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    assertEquals(50, a.hosts("c1").size());
    assertEquals(a.hosts("c1"), b.hosts("c1"));
  }

  @Test
  void watch_seesChangesMadeThroughAnotherInstance() throws Exception {
    Registry a = open();
    Registry b = peer(a);
    BlockingQueue<RegistryEvent> seen = new LinkedBlockingQueue<>();
    try (AutoCloseable w =
        b.watch(
            new RegistryListener() {
              @Override
              public void onChange(RegistryEvent event) {
                seen.add(event);
              }
            })) {
      a.putDaemon(daemon("memory@alpha", "memory"));
      a.putHost(host("c7", "alpha"));
      a.putClique(clique("c7-net", "alpha", "beta"));
      a.compareAndSet("placement/memory/1", new byte[] {1}, Versioned.ABSENT);
      try (Presence p = a.join("forecasters", "f1", Map.of())) {
        List<RegistryEvent> expected =
            List.of(
                new RegistryEvent(RegistryEvent.Area.DAEMON, "memory@alpha"),
                new RegistryEvent(RegistryEvent.Area.HOSTS, "c7"),
                new RegistryEvent(RegistryEvent.Area.CLIQUE, "c7-net"),
                new RegistryEvent(RegistryEvent.Area.VALUE, "placement/memory/1"),
                new RegistryEvent(RegistryEvent.Area.MEMBER, "forecasters/f1"));
        List<RegistryEvent> got = new ArrayList<>();
        long deadline = System.nanoTime() + PROPAGATION.toNanos();
        while (!got.containsAll(expected) && System.nanoTime() < deadline) {
          RegistryEvent e = seen.poll(100, TimeUnit.MILLISECONDS);
          if (e != null) {
            got.add(e);
          }
        }
        assertTrue(got.containsAll(expected), "seen " + got);
      }
    }
    // And what the events point at is there to read.
    assertEquals(Optional.of(daemon("memory@alpha", "memory")), b.daemon("memory@alpha"));
    assertEquals(List.of(clique("c7-net", "alpha", "beta")), b.cliques());
  }

  @Test
  void presence_endsWithItsSession_andIsMadeAgainUnderANewOne() throws Exception {
    Registry a = open();
    Registry b = peer(a);
    BlockingQueue<RegistryState> states = new LinkedBlockingQueue<>();
    a.watch(
        new RegistryListener() {
          @Override
          public void onChange(RegistryEvent event) {}

          @Override
          public void onState(RegistryState state) {
            states.add(state);
          }
        });
    Presence p = a.join("forecasters", "f1", Map.of("address", "fc1:8070"));
    long first = p.session();
    awaitTrue(() -> sessionsOf(b, "forecasters", "f1").equals(List.of(first)), "f1 listed");
    assertEquals(
        Map.of("address", "fc1:8070"), b.members("forecasters").get(0).data(), "member data");

    endSession(a);

    // ZooKeeper says SUSPENDED first (the link broke), then LOST (the session is gone).
    RegistryState state;
    do {
      state = states.poll(PROPAGATION.toSeconds(), TimeUnit.SECONDS);
    } while (state == RegistryState.SUSPENDED);
    assertEquals(RegistryState.LOST, state);
    awaitTrue(
        () -> {
          List<Long> s = sessionsOf(b, "forecasters", "f1");
          return s.size() == 1 && s.get(0) != first;
        },
        "f1 listed again under a new session");
    assertNotEquals(first, p.session());
    assertEquals(sessionsOf(b, "forecasters", "f1"), List.of(p.session()));

    p.close();
    awaitTrue(() -> b.members("forecasters").isEmpty(), "f1 gone once its presence is closed");
  }

  @Test
  void presence_update_changesTheDataOthersSee_withoutLeaving() throws Exception {
    Registry a = open();
    Registry b = peer(a);
    Presence p = a.join("forecaster", "f1", Map.of("address", "fc1:8070", "warm", ""));
    long session = p.session();
    awaitTrue(() -> b.members("forecaster").size() == 1, "f1 listed");
    List<RegistryEvent> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (AutoCloseable w =
        b.watch(
            new RegistryListener() {
              @Override
              public void onChange(RegistryEvent event) {
                seen.add(event);
              }
            })) {
      p.update(Map.of("address", "fc1:8070", "warm", "AQ=="));
      awaitTrue(
          () ->
              b.members("forecaster").stream()
                  .anyMatch(m -> m.data().equals(Map.of("address", "fc1:8070", "warm", "AQ=="))),
          "the new data listed");
      awaitTrue(
          () -> seen.contains(new RegistryEvent(RegistryEvent.Area.MEMBER, "forecaster/f1")),
          "the change told to watchers");
    }
    assertEquals(List.of(session), sessionsOf(b, "forecaster", "f1"), "still the same member");

    // Made again after a loss with the data last set, not the data it joined with.
    endSession(a);
    awaitTrue(
        () -> {
          List<Member> m = b.members("forecaster");
          return m.size() == 1
              && m.get(0).session() != session
              && m.get(0).data().get("warm").equals("AQ==");
        },
        "f1 made again with its last data");
  }

  @Test
  void members_leaveWhenTheirRegistryCloses() throws Exception {
    Registry a = open();
    Registry b = peer(a);
    b.join("nameservers", "ns2", Map.of());
    a.join("nameservers", "ns1", Map.of());
    awaitTrue(() -> a.members("nameservers").size() == 2, "both listed");
    b.close();
    awaitTrue(
        () -> a.members("nameservers").stream().map(Member::id).toList().equals(List.of("ns1")),
        "ns2 gone with its registry");
  }

  @Test
  void badNames_areRefusedWithTheirName() throws Exception {
    Registry r = open();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> r.value("../etc"));
    assertTrue(e.getMessage().contains("../etc"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> r.join("a/b", "x", Map.of()));
    assertThrows(IllegalArgumentException.class, () -> host("c/1", "alpha"));
  }

  protected static List<Long> sessionsOf(Registry r, String group, String id) {
    return r.members(group).stream().filter(m -> m.id().equals(id)).map(Member::session).toList();
  }

  /** Polls {@code condition} until it holds or {@link #PROPAGATION} passes. */
  protected static void awaitTrue(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + PROPAGATION.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + PROPAGATION + ": " + what);
      }
      Thread.sleep(20);
    }
  }
}
