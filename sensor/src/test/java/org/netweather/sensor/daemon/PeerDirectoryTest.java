package org.netweather.sensor.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.testing.GrpcCleanupExtension;

/** The sensor asks the nameserver for its clique members only, never for every sensor. */
class PeerDirectoryTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private static final Pattern HOST = Pattern.compile("\\(host=((?:\\\\.|[^)\\\\])*)\\)");

  /** Sensors h0..h199 on 10.0.0.x; answers a search with the hosts its filter names. */
  private final List<String> filters = new ArrayList<>();

  private PeerDirectory peers;

  @BeforeEach
  void setUp() throws Exception {
    String name = InProcessServerBuilder.generateName();
    grpc.register(
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new NameserverGrpc.NameserverImplBase() {
                  @Override
                  public void search(SearchRequest req, StreamObserver<SearchResponse> out) {
                    synchronized (filters) {
                      filters.add(req.getFilter());
                    }
                    SearchResponse.Builder r = SearchResponse.newBuilder();
                    Matcher m = HOST.matcher(req.getFilter());
                    while (m.find()) {
                      String host = m.group(1).replace("\\", "");
                      r.addRegistrations(sensor(host));
                    }
                    out.onNext(r.build());
                    out.onCompleted();
                  }
                })
            .build()
            .start());
    ManagedChannel ch = grpc.register(InProcessChannelBuilder.forName(name).build());
    peers = new PeerDirectory(ch);
  }

  private static Registration sensor(String host) {
    int n = host.startsWith("h") ? Integer.parseInt(host.substring(1)) : 250;
    return Registration.newBuilder()
        .setName("sensor@" + host)
        .setKind("sensor")
        .setAddress("10.0.0." + n + ":8060")
        .putAttributes("host", host)
        .putAttributes("probe", "10.0.0." + n + ":8061")
        .build();
  }

  private static InetSocketAddress probeOf(int n) {
    return new InetSocketAddress("10.0.0." + n, 40000);
  }

  @Test
  void refresh_asksForTheMembersOnly_andTheyAloneMayProbe() {
    peers.refresh(Set.of("h2", "h1"));

    assertEquals(List.of("(&(kind=sensor)(|(host=h1)(host=h2)))"), filters);
    assertEquals("10.0.0.1:8060", peers.find("h1").orElseThrow().control());
    assertEquals(1, filters.size(), "a known peer needs no search");
    assertTrue(peers.isSensorAddress(probeOf(2)));
    assertFalse(peers.isSensorAddress(probeOf(3)), "a sensor outside our cliques");
  }

  @Test
  void find_ofAnUnknownHost_looksUpThatHostAlone() {
    peers.refresh(Set.of("h1"));
    assertEquals(8061, peers.find("h7").orElseThrow().probe().getPort());
    assertEquals("(&(kind=sensor)(|(host=h7)))", filters.get(1));
  }

  @Test
  void refresh_forgetsHostsThatLeftOurCliques() {
    peers.refresh(Set.of("h1", "h2"));
    peers.refresh(Set.of("h2"));
    assertFalse(peers.isSensorAddress(probeOf(1)));
    assertTrue(peers.isSensorAddress(probeOf(2)));
  }

  @Test
  void refresh_ofAWholeClusterOfMembers_searchesInBoundedPieces() {
    peers.refresh(IntStream.range(0, 130).mapToObj(i -> "h" + i).toList());
    assertEquals(3, filters.size(), "64 hosts per search");
    assertTrue(peers.isSensorAddress(probeOf(129)));
  }

  @Test
  void escape_quotesTheFilterSyntax() {
    assertEquals("a\\(b\\)\\*\\\\c", org.netweather.client.Filters.escape("a(b)*\\c"));
    peers.refresh(Set.of("odd(1)"));
    assertEquals("(&(kind=sensor)(|(host=odd\\(1\\))))", filters.get(0));
    assertTrue(peers.isSensorAddress(new InetSocketAddress("10.0.0.250", 1)));
  }
}
