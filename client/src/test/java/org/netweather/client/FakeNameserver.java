package org.netweather.client;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.AssignSeriesResponse;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.DeleteCliqueRequest;
import org.netweather.api.v1.DeleteCliqueResponse;
import org.netweather.api.v1.HeartbeatRequest;
import org.netweather.api.v1.HeartbeatResponse;
import org.netweather.api.v1.ListCliquesRequest;
import org.netweather.api.v1.ListCliquesResponse;
import org.netweather.api.v1.ListDirectoryRequest;
import org.netweather.api.v1.ListDirectoryResponse;
import org.netweather.api.v1.LookupRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.PutCliqueRequest;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.RegisterResponse;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.api.v1.UnregisterRequest;
import org.netweather.api.v1.UnregisterResponse;

/**
 * A nameserver that keeps registrations in a list, understands filters made of {@code (key=value)}
 * terms joined by {@code &}, and assigns every series to one memory-host.
 */
final class FakeNameserver extends NameserverGrpc.NameserverImplBase {
  private static final Pattern TERM = Pattern.compile("\\((\\w+)=([^()]*)\\)");

  final Failures failures = new Failures();
  final List<Registration> registrations = new CopyOnWriteArrayList<>();
  final Map<String, Clique> cliques = new ConcurrentHashMap<>();
  volatile String memoryHost = "";

  @Override
  public void register(RegisterRequest req, StreamObserver<RegisterResponse> out) {
    if (failures.failed("register", out)) {
      return;
    }
    registrations.removeIf(r -> r.getName().equals(req.getRegistration().getName()));
    registrations.add(req.getRegistration());
    reply(
        out,
        RegisterResponse.newBuilder()
            .setLeaseId("lease-" + req.getRegistration().getName())
            .setExpiresMs(req.getTtlSeconds() * 1000)
            .build());
  }

  @Override
  public void heartbeat(HeartbeatRequest req, StreamObserver<HeartbeatResponse> out) {
    if (failures.failed("heartbeat", out)) {
      return;
    }
    if (!req.getLeaseId().startsWith("lease-")) {
      out.onError(Status.NOT_FOUND.withDescription("no lease").asRuntimeException());
      return;
    }
    reply(out, HeartbeatResponse.newBuilder().setExpiresMs(42).build());
  }

  @Override
  public void unregister(UnregisterRequest req, StreamObserver<UnregisterResponse> out) {
    if (failures.failed("unregister", out)) {
      return;
    }
    boolean removed = registrations.removeIf(r -> r.getName().equals(req.getName()));
    reply(out, UnregisterResponse.newBuilder().setRemoved(removed).build());
  }

  @Override
  public void lookup(LookupRequest req, StreamObserver<Registration> out) {
    if (failures.failed("lookup", out)) {
      return;
    }
    for (Registration r : registrations) {
      if (r.getName().equals(req.getName())) {
        reply(out, r);
        return;
      }
    }
    out.onError(Status.NOT_FOUND.withDescription(req.getName()).asRuntimeException());
  }

  @Override
  public void search(SearchRequest req, StreamObserver<SearchResponse> out) {
    if (failures.failed("search", out)) {
      return;
    }
    List<Registration> hits = new ArrayList<>();
    for (Registration r : registrations) {
      if (matches(req.getFilter(), r)) {
        hits.add(r);
      }
    }
    reply(out, SearchResponse.newBuilder().addAllRegistrations(hits).build());
  }

  private static boolean matches(String filter, Registration r) {
    Matcher m = TERM.matcher(filter);
    while (m.find()) {
      String value =
          switch (m.group(1)) {
            case "kind" -> r.getKind();
            case "name" -> r.getName();
            default -> r.getAttributesOrDefault(m.group(1), null);
          };
      if (!m.group(2).equals(value)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void assignSeries(AssignSeriesRequest req, StreamObserver<AssignSeriesResponse> out) {
    if (failures.failed("assignSeries", out)) {
      return;
    }
    AssignSeriesResponse.Builder b = AssignSeriesResponse.newBuilder();
    for (String s : req.getSeriesList()) {
      b.addAssignments(assignment(s));
    }
    reply(out, b.build());
  }

  @Override
  public void listSeries(ListDirectoryRequest req, StreamObserver<ListDirectoryResponse> out) {
    if (failures.failed("listSeries", out)) {
      return;
    }
    // Every exact name is in the directory: enough for lookups by name.
    reply(
        out,
        ListDirectoryResponse.newBuilder().addAssignments(assignment(req.getPattern())).build());
  }

  private SeriesAssignment assignment(String series) {
    return SeriesAssignment.newBuilder()
        .setSeries(series)
        .setMemoryHost("memory@m")
        .setAddress(memoryHost)
        .build();
  }

  @Override
  public void putClique(PutCliqueRequest req, StreamObserver<Clique> out) {
    if (failures.failed("putClique", out)) {
      return;
    }
    cliques.put(req.getClique().getName(), req.getClique());
    reply(out, req.getClique());
  }

  @Override
  public void deleteClique(DeleteCliqueRequest req, StreamObserver<DeleteCliqueResponse> out) {
    if (failures.failed("deleteClique", out)) {
      return;
    }
    reply(
        out,
        DeleteCliqueResponse.newBuilder()
            .setRemoved(cliques.remove(req.getName()) != null)
            .build());
  }

  @Override
  public void listCliques(ListCliquesRequest req, StreamObserver<ListCliquesResponse> out) {
    if (failures.failed("listCliques", out)) {
      return;
    }
    ListCliquesResponse.Builder b = ListCliquesResponse.newBuilder();
    cliques.values().stream()
        .filter(c -> req.getHost().isEmpty() || c.getMembersList().contains(req.getHost()))
        .forEach(b::addCliques);
    reply(out, b.build());
  }

  static <T> void reply(StreamObserver<T> out, T value) {
    out.onNext(value);
    out.onCompleted();
  }
}
