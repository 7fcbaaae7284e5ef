package org.netweather.nameserver;

import io.grpc.stub.StreamObserver;
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
import org.netweather.api.v1.UnregisterRequest;
import org.netweather.api.v1.UnregisterResponse;
import org.netweather.nameserver.JournalEntry.Registered;
import org.netweather.runtime.Statuses;

/** The {@code netweather.v1.Nameserver} gRPC service over a {@link Nameserver}. */
public final class NameserverService extends NameserverGrpc.NameserverImplBase {
  private final Nameserver ns;

  public NameserverService(Nameserver ns) {
    this.ns = ns;
  }

  @Override
  public void register(RegisterRequest req, StreamObserver<RegisterResponse> out) {
    Statuses.respond(out, () -> {
      if (!req.hasRegistration()) {
        throw new IllegalArgumentException("registration is missing");
      }
      Registered r = ns.register(req.getRegistration(), req.getTtlSeconds());
      return RegisterResponse.newBuilder()
          .setLeaseId(r.leaseId())
          .setExpiresMs(r.registration().getExpiresMs())
          .build();
    });
  }

  @Override
  public void heartbeat(HeartbeatRequest req, StreamObserver<HeartbeatResponse> out) {
    Statuses.respond(out, () -> HeartbeatResponse.newBuilder()
        .setExpiresMs(ns.heartbeat(req.getLeaseId()).orElseThrow(() -> Statuses.notFound(
            "lease '" + req.getLeaseId() + "' is unknown or expired; register again")))
        .build());
  }

  @Override
  public void unregister(UnregisterRequest req, StreamObserver<UnregisterResponse> out) {
    Statuses.respond(out,
        () -> UnregisterResponse.newBuilder().setRemoved(ns.unregister(req.getName())).build());
  }

  @Override
  public void lookup(LookupRequest req, StreamObserver<Registration> out) {
    Statuses.respond(out, () -> ns.lookup(req.getName()).orElseThrow(
        () -> Statuses.notFound("no live registration named '" + req.getName() + "'")));
  }

  @Override
  public void search(SearchRequest req, StreamObserver<SearchResponse> out) {
    Statuses.respond(out, () -> SearchResponse.newBuilder()
        .addAllRegistrations(ns.search(Filter.parse(req.getFilter())))
        .build());
  }

  @Override
  public void assignSeries(AssignSeriesRequest req, StreamObserver<AssignSeriesResponse> out) {
    Statuses.respond(out, () -> {
      try {
        return AssignSeriesResponse.newBuilder()
            .addAllAssignments(ns.assign(req.getSeriesList()))
            .build();
      } catch (IllegalStateException e) {
        throw Statuses.unavailable(e.getMessage());
      }
    });
  }

  @Override
  public void listSeries(ListDirectoryRequest req, StreamObserver<ListDirectoryResponse> out) {
    Statuses.respond(out, () -> ListDirectoryResponse.newBuilder()
        .addAllAssignments(ns.directory(req.getPattern()))
        .build());
  }

  @Override
  public void putClique(PutCliqueRequest req, StreamObserver<Clique> out) {
    Statuses.respond(out, () -> ns.putClique(req.getClique()));
  }

  @Override
  public void deleteClique(DeleteCliqueRequest req, StreamObserver<DeleteCliqueResponse> out) {
    Statuses.respond(out, () -> DeleteCliqueResponse.newBuilder()
        .setRemoved(ns.deleteClique(req.getName()))
        .build());
  }

  @Override
  public void listCliques(ListCliquesRequest req, StreamObserver<ListCliquesResponse> out) {
    Statuses.respond(out, () -> ListCliquesResponse.newBuilder()
        .addAllCliques(ns.cliques(req.getHost()))
        .build());
  }
}
