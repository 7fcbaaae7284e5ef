package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.ForgetSeriesRequest;
import org.netweather.api.v1.ListCliquesRequest;
import org.netweather.api.v1.ListCliquesResponse;
import org.netweather.api.v1.ListDirectoryRequest;
import org.netweather.api.v1.ListDirectoryResponse;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.NameserverGrpc.NameserverBlockingStub;
import org.netweather.api.v1.PutCliqueRequest;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;

/** Paged listings and ForgetSeries over the service. */
class NameserverPagingTest {
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

  private static Registration reg(String name, String kind, int attributes, int valueBytes) {
    Registration.Builder b =
        Registration.newBuilder().setName(name).setKind(kind).setAddress("localhost:1");
    for (int i = 0; i < attributes; i++) {
      b.putAttributes("a" + i, "v".repeat(valueBytes));
    }
    return b.build();
  }

  private List<String> searchAll(String filter, int pageSize, List<Integer> pageSizes) {
    List<String> names = new ArrayList<>();
    String token = "";
    do {
      SearchResponse r =
          stub.search(
              SearchRequest.newBuilder()
                  .setFilter(filter)
                  .setPageSize(pageSize)
                  .setPageToken(token)
                  .build());
      r.getRegistrationsList().forEach(x -> names.add(x.getName()));
      pageSizes.add(r.getRegistrationsCount());
      token = r.getNextPageToken();
    } while (!token.isEmpty());
    return names;
  }

  @Test
  void search_pagesInNameOrder_filteredOnTheServer_withoutRepeatsOrGaps() {
    for (int i = 0; i < 25; i++) {
      ns.register(reg(String.format("s%02d", i), i % 5 == 0 ? "memory" : "sensor", 0, 0), 60);
    }
    List<Integer> sizes = new ArrayList<>();
    List<String> sensors = searchAll("(kind=sensor)", 7, sizes);
    assertEquals(20, sensors.size());
    assertEquals(sensors.stream().sorted().toList(), sensors);
    assertEquals(List.of(7, 7, 6), sizes);
    // A default page holds them all; no token follows.
    SearchResponse all = stub.search(SearchRequest.getDefaultInstance());
    assertEquals(25, all.getRegistrationsCount());
    assertEquals("", all.getNextPageToken());
  }

  @Test
  void search_largeRegistrations_pagesStayUnderAMegabyte() {
    // 7 KiB each, near the most a registration may hold: 400 of them need three pages.
    for (int i = 0; i < 400; i++) {
      ns.register(reg(String.format("big%03d", i), "sensor", 7, 1000), 60);
    }
    String token = "";
    int seen = 0;
    do {
      SearchResponse r = stub.search(SearchRequest.newBuilder().setPageToken(token).build());
      assertTrue(r.getSerializedSize() <= Page.MAX_BYTES + 1024, "" + r.getSerializedSize());
      assertTrue(r.getRegistrationsCount() > 0);
      seen += r.getRegistrationsCount();
      token = r.getNextPageToken();
    } while (!token.isEmpty());
    assertEquals(400, seen);
  }

  @Test
  void registrationAddedBetweenPages_isListedOnce_andNothingIsSkipped() {
    for (String n : List.of("a", "c", "e")) {
      ns.register(reg(n, "sensor", 0, 0), 60);
    }
    SearchResponse first = stub.search(SearchRequest.newBuilder().setPageSize(2).build());
    ns.register(reg("b", "sensor", 0, 0), 60); // before the token: not seen now
    ns.register(reg("d", "sensor", 0, 0), 60); // after it: seen
    SearchResponse second =
        stub.search(
            SearchRequest.newBuilder()
                .setPageSize(2)
                .setPageToken(first.getNextPageToken())
                .build());
    List<String> names = new ArrayList<>();
    first.getRegistrationsList().forEach(r -> names.add(r.getName()));
    second.getRegistrationsList().forEach(r -> names.add(r.getName()));
    assertEquals(List.of("a", "c", "d", "e"), names);
  }

  @Test
  void pageSize_isCappedAtTheMaximum_andABadTokenIsInvalidArgument() {
    assertEquals(Page.MAX_SIZE, Page.size(1_000_000));
    assertEquals(Page.DEFAULT_SIZE, Page.size(0));
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.search(SearchRequest.newBuilder().setPageToken("%%%").build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("page_token"));
  }

  @Test
  void listSeriesAndCliques_page_andForgetSeriesDropsOnlyWhatMatches() {
    ns.register(reg("memory@m1", "memory", 0, 0), 60);
    ns.register(reg("memory@m2", "memory", 0, 0), 60);
    List<String> series = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      series.add("cpu.availability:h" + i);
      series.add("memory.free:h" + i);
    }
    stub.assignSeries(AssignSeriesRequest.newBuilder().addAllSeries(series).build());
    assertEquals(60, listSeries("", 8));
    assertEquals(30, listSeries("cpu.*", 8));

    String m1 = ns.directory("cpu.availability:h0").get(0).getMemoryHost();
    long onM1 = ns.directory("cpu.*").stream().filter(a -> a.getMemoryHost().equals(m1)).count();
    assertEquals(
        onM1,
        stub.forgetSeries(
                ForgetSeriesRequest.newBuilder().setPattern("cpu.*").setMemoryHost(m1).build())
            .getForgotten());
    assertEquals(30 - onM1, listSeries("cpu.*", 8));
    assertEquals(
        30 - onM1,
        stub.forgetSeries(ForgetSeriesRequest.newBuilder().setPattern("cpu.*").build())
            .getForgotten());
    assertEquals(30, listSeries("", 8));
    assertEquals(
        Status.Code.INVALID_ARGUMENT,
        assertThrows(
                StatusRuntimeException.class,
                () -> stub.forgetSeries(ForgetSeriesRequest.getDefaultInstance()))
            .getStatus()
            .getCode());

    for (int i = 0; i < 5; i++) {
      stub.putClique(
          PutCliqueRequest.newBuilder()
              .setClique(
                  Clique.newBuilder()
                      .setName("c" + i)
                      .addMembers("a")
                      .addMembers("h" + i)
                      .setPeriodSeconds(60))
              .build());
    }
    ListCliquesResponse p1 =
        stub.listCliques(ListCliquesRequest.newBuilder().setHost("a").setPageSize(3).build());
    ListCliquesResponse p2 =
        stub.listCliques(
            ListCliquesRequest.newBuilder()
                .setHost("a")
                .setPageSize(3)
                .setPageToken(p1.getNextPageToken())
                .build());
    assertEquals(3, p1.getCliquesCount());
    assertEquals(2, p2.getCliquesCount());
    assertEquals("", p2.getNextPageToken());
  }

  private int listSeries(String pattern, int pageSize) {
    int n = 0;
    String token = "";
    do {
      ListDirectoryResponse r =
          stub.listSeries(
              ListDirectoryRequest.newBuilder()
                  .setPattern(pattern)
                  .setPageSize(pageSize)
                  .setPageToken(token)
                  .build());
      assertTrue(r.getAssignmentsCount() <= pageSize);
      n += r.getAssignmentsCount();
      token = r.getNextPageToken();
    } while (!token.isEmpty());
    return n;
  }
}
