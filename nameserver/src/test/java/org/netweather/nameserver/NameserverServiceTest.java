package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.DeleteCliqueRequest;
import org.netweather.api.v1.HeartbeatRequest;
import org.netweather.api.v1.ListCliquesRequest;
import org.netweather.api.v1.ListDirectoryRequest;
import org.netweather.api.v1.LookupRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.NameserverGrpc.NameserverBlockingStub;
import org.netweather.api.v1.PutCliqueRequest;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.RegisterResponse;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.api.v1.UnregisterRequest;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;

class NameserverServiceTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private Nameserver ns;
  private NameserverBlockingStub stub;

  @BeforeEach
  void setUp() throws Exception {
    ns = Nameserver.open(dir, clock);
    stub = NameserverGrpc.newBlockingStub(grpc.inProcess(new NameserverService(ns)));
  }

  @AfterEach
  void tearDown() throws Exception {
    ns.close();
  }

  private static Registration reg(String name, String kind, Map<String, String> attrs) {
    return Registration.newBuilder()
        .setName(name)
        .setKind(kind)
        .setAddress("localhost:1")
        .putAllAttributes(attrs)
        .build();
  }

  private RegisterResponse register(Registration r, long ttl) {
    return stub.register(
        RegisterRequest.newBuilder().setRegistration(r).setTtlSeconds(ttl).build());
  }

  @Test
  void register_thenLookup_returnsRecordWithLease() {
    RegisterResponse r = register(reg("sensor@alpha", "sensor", Map.of("host", "alpha")), 30);
    assertEquals(clock.millis() + 30_000, r.getExpiresMs());
    Registration got = stub.lookup(LookupRequest.newBuilder().setName("sensor@alpha").build());
    assertEquals("alpha", got.getAttributesOrThrow("host"));
    assertEquals(clock.millis(), got.getRegisteredMs());
  }

  @Test
  void lease_expiresWithoutHeartbeat_andHeartbeatExtendsIt() {
    RegisterResponse r = register(reg("a", "sensor", Map.of()), 10);
    clock.advance(Duration.ofSeconds(8));
    long expires =
        stub.heartbeat(HeartbeatRequest.newBuilder().setLeaseId(r.getLeaseId()).build())
            .getExpiresMs();
    assertEquals(clock.millis() + 10_000, expires);
    clock.advance(Duration.ofSeconds(8));
    stub.lookup(LookupRequest.newBuilder().setName("a").build());
    clock.advance(Duration.ofSeconds(3));
    assertCode(
        Status.Code.NOT_FOUND, () -> stub.lookup(LookupRequest.newBuilder().setName("a").build()));
    assertCode(
        Status.Code.NOT_FOUND,
        () -> stub.heartbeat(HeartbeatRequest.newBuilder().setLeaseId(r.getLeaseId()).build()));
  }

  @Test
  void unregister_removesAtOnce_andAbsentNameSucceeds() {
    register(reg("a", "sensor", Map.of()), 10);
    assertTrue(stub.unregister(UnregisterRequest.newBuilder().setName("a").build()).getRemoved());
    assertFalse(stub.unregister(UnregisterRequest.newBuilder().setName("a").build()).getRemoved());
    assertCode(
        Status.Code.NOT_FOUND, () -> stub.lookup(LookupRequest.newBuilder().setName("a").build()));
  }

  @Test
  void search_filtersByAttributesKindAndName() {
    register(reg("sensor@alpha", "sensor", Map.of("cluster", "a", "cores", "8")), 30);
    register(reg("sensor@beta", "sensor", Map.of("cluster", "b", "cores", "2")), 30);
    register(reg("memory@alpha", "memory", Map.of("cluster", "a")), 30);
    assertEquals(List.of("memory@alpha", "sensor@alpha"), names("(cluster=a)"));
    assertEquals(List.of("sensor@alpha"), names("(&(kind=sensor)(cores>=4))"));
    assertEquals(List.of("memory@alpha", "sensor@beta"), names("(|(kind=memory)(name=*beta))"));
    assertEquals(3, names("").size());
  }

  private List<String> names(String filter) {
    return stub
        .search(SearchRequest.newBuilder().setFilter(filter).build())
        .getRegistrationsList()
        .stream()
        .map(Registration::getName)
        .collect(Collectors.toList());
  }

  @Test
  void assignSeries_spreadsOverMemoryHosts_andIsStable() {
    register(reg("memory@m1", "memory", Map.of()), 30);
    register(reg("memory@m2", "memory", Map.of()), 30);
    List<String> series =
        List.of("cpu.availability:a", "cpu.availability:b", "memory.free:a", "memory.free:b");
    Map<String, String> first = assign(series);
    assertEquals(2, first.values().stream().filter("memory@m1"::equals).count());
    assertEquals(2, first.values().stream().filter("memory@m2"::equals).count());
    // A third memory-host appears: nothing moves.
    register(reg("memory@m3", "memory", Map.of()), 30);
    assertEquals(first, assign(series));
    // The next new series goes to the emptiest host.
    assertEquals("memory@m3", assign(List.of("tcp.bandwidth:a->b")).get("tcp.bandwidth:a->b"));
  }

  @Test
  void assignSeries_movesOnlyWhenLeaseExpires() {
    RegisterResponse m1 = register(reg("memory@m1", "memory", Map.of()), 10);
    assertEquals("memory@m1", assign(List.of("cpu.availability:a")).get("cpu.availability:a"));
    register(reg("memory@m2", "memory", Map.of()), 100);
    clock.advance(Duration.ofSeconds(5));
    stub.heartbeat(HeartbeatRequest.newBuilder().setLeaseId(m1.getLeaseId()).build());
    assertEquals("memory@m1", assign(List.of("cpu.availability:a")).get("cpu.availability:a"));
    clock.advance(Duration.ofSeconds(11));
    assertEquals("memory@m2", assign(List.of("cpu.availability:a")).get("cpu.availability:a"));
    List<SeriesAssignment> dir =
        stub.listSeries(ListDirectoryRequest.newBuilder().setPattern("cpu.*").build())
            .getAssignmentsList();
    assertEquals(1, dir.size());
    assertEquals("localhost:1", dir.get(0).getAddress());
  }

  private Map<String, String> assign(List<String> series) {
    return stub
        .assignSeries(AssignSeriesRequest.newBuilder().addAllSeries(series).build())
        .getAssignmentsList()
        .stream()
        .collect(Collectors.toMap(SeriesAssignment::getSeries, SeriesAssignment::getMemoryHost));
  }

  @Test
  void assignSeries_withoutMemoryHost_isUnavailable() {
    assertCode(Status.Code.UNAVAILABLE, () -> assign(List.of("cpu.availability:a")));
  }

  @Test
  void state_survivesReopen_withGraceForLiveLeases() throws Exception {
    register(reg("memory@m1", "memory", Map.of("host", "m1")), 10);
    register(reg("old", "sensor", Map.of()), 1);
    assign(List.of("cpu.availability:a"));
    stub.putClique(PutCliqueRequest.newBuilder().setClique(clique("c1", "a", "b")).build());
    clock.advance(Duration.ofSeconds(5));
    // Simulate kill -9: do not close, just open a second instance over the same files.
    Nameserver reopened = Nameserver.open(dir, clock);
    clock.advance(Duration.ofSeconds(8)); // beyond the original expiry, within the grace TTL
    assertTrue(reopened.lookup("memory@m1").isPresent());
    assertFalse(reopened.lookup("old").isPresent());
    assertEquals("memory@m1", reopened.directory("").get(0).getMemoryHost());
    assertEquals(List.of("a", "b"), reopened.cliques("a").get(0).getMembersList());
  }

  @Test
  void cliques_putListDelete() {
    stub.putClique(PutCliqueRequest.newBuilder().setClique(clique("c1", "a", "b")).build());
    stub.putClique(PutCliqueRequest.newBuilder().setClique(clique("c2", "b", "c")).build());
    assertEquals(
        2,
        stub.listCliques(ListCliquesRequest.newBuilder().setHost("b").build()).getCliquesCount());
    assertEquals(
        1,
        stub.listCliques(ListCliquesRequest.newBuilder().setHost("a").build()).getCliquesCount());
    assertTrue(
        stub.deleteClique(DeleteCliqueRequest.newBuilder().setName("c1").build()).getRemoved());
    assertEquals(1, stub.listCliques(ListCliquesRequest.getDefaultInstance()).getCliquesCount());
  }

  private static Clique clique(String name, String... members) {
    return Clique.newBuilder()
        .setName(name)
        .addAllMembers(List.of(members))
        .setPeriodSeconds(60)
        .build();
  }

  @Test
  void badInput_isInvalidArgumentNamingTheField_andChangesNothing() {
    assertInvalid("ttl_seconds", () -> register(reg("a", "sensor", Map.of()), 0));
    assertInvalid("ttl_seconds", () -> register(reg("a", "sensor", Map.of()), 10_000_000));
    assertInvalid("name", () -> register(reg("a b", "sensor", Map.of()), 10));
    assertInvalid("kind", () -> register(reg("a", "Sensor!", Map.of()), 10));
    assertInvalid(
        "address",
        () -> register(reg("a", "sensor", Map.of()).toBuilder().setAddress("nohost").build(), 10));
    assertInvalid("attributes", () -> register(reg("a", "sensor", Map.of("b a d", "x")), 10));
    assertInvalid("registration", () -> stub.register(RegisterRequest.getDefaultInstance()));
    // 64 attributes of 1 KiB once made 3 000 registrations a 190 MB journal.
    Map<String, String> big = new java.util.HashMap<>();
    for (int i = 0; i < 64; i++) {
      big.put("a" + i, "v".repeat(1024));
    }
    assertInvalid("at most 8192", () -> register(reg("a", "sensor", big), 10));
    assertInvalid(
        "attributes key", () -> register(reg("a", "sensor", Map.of("k".repeat(65), "x")), 10));
    assertInvalid(
        "nested more than 32",
        () ->
            stub.search(
                SearchRequest.newBuilder()
                    .setFilter("(!".repeat(2000) + "(kind=x)" + ")".repeat(2000))
                    .build()));
    assertInvalid("lease_id", () -> stub.heartbeat(HeartbeatRequest.getDefaultInstance()));
    assertInvalid(
        "filter", () -> stub.search(SearchRequest.newBuilder().setFilter("(&(kind=x)").build()));
    assertInvalid("series name", () -> assign(List.of("no-colon")));
    assertInvalid("series", () -> stub.assignSeries(AssignSeriesRequest.getDefaultInstance()));
    assertInvalid(
        "pattern",
        () -> stub.listSeries(ListDirectoryRequest.newBuilder().setPattern("a b").build()));
    assertInvalid(
        "clique.members",
        () -> stub.putClique(PutCliqueRequest.newBuilder().setClique(clique("c", "a")).build()));
    assertInvalid(
        "clique.period_seconds",
        () ->
            stub.putClique(
                PutCliqueRequest.newBuilder()
                    .setClique(clique("c", "a", "b").toBuilder().setPeriodSeconds(0))
                    .build()));
    assertInvalid(
        "twice",
        () ->
            stub.putClique(PutCliqueRequest.newBuilder().setClique(clique("c", "a", "a")).build()));
    assertEquals(0, names("").size());
    assertEquals(0, stub.listCliques(ListCliquesRequest.getDefaultInstance()).getCliquesCount());
  }

  private static void assertInvalid(String field, Runnable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.toString());
    assertTrue(e.getStatus().getDescription().contains(field), e.getStatus().getDescription());
  }

  private static void assertCode(Status.Code code, Runnable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
    assertEquals(code, e.getStatus().getCode(), e.toString());
    assertNotEquals(null, e.getStatus().getDescription());
  }
}
