package org.netweather.nameserver;

import io.grpc.BindableService;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.AssignSeriesResponse;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.DeleteCliqueRequest;
import org.netweather.api.v1.DeleteCliqueResponse;
import org.netweather.api.v1.ForgetSeriesRequest;
import org.netweather.api.v1.ForgetSeriesResponse;
import org.netweather.api.v1.GetPlacementRequest;
import org.netweather.api.v1.GetPlacementResponse;
import org.netweather.api.v1.HeartbeatRequest;
import org.netweather.api.v1.HeartbeatResponse;
import org.netweather.api.v1.ListCliquesRequest;
import org.netweather.api.v1.ListCliquesResponse;
import org.netweather.api.v1.ListDirectoryRequest;
import org.netweather.api.v1.ListDirectoryResponse;
import org.netweather.api.v1.ListMissingRequest;
import org.netweather.api.v1.ListMissingResponse;
import org.netweather.api.v1.LookupRequest;
import org.netweather.api.v1.MissingDaemon;
import org.netweather.api.v1.MoveShardsRequest;
import org.netweather.api.v1.MoveShardsResponse;
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
import org.netweather.api.v1.WatchCliquesRequest;
import org.netweather.api.v1.WatchCliquesResponse;
import org.netweather.nameserver.JournalEntry.Registered;
import org.netweather.nameserver.placement.Placements;
import org.netweather.registry.RegistryException;
import org.netweather.registry.StaleVersionException;
import org.netweather.runtime.Statuses;
import org.netweather.runtime.StreamLimits;
import org.netweather.runtime.auth.Caller;
import org.netweather.runtime.auth.Role;

/**
 * The {@code netweather.v1.Nameserver} gRPC service over a {@link Nameserver}. Clique watches are
 * bounded by {@link StreamLimits}, a caller being one client connection.
 */
public final class NameserverService implements NameserverGrpc.AsyncService, BindableService {
  /** The remote address of the call's connection, set by {@link #bindService()}. */
  private static final Context.Key<String> CALLER = Context.key("netweather-caller");

  private final Nameserver ns;
  private final SeriesDirectory series;
  private final StreamLimits watchLimits;
  private final AddressCheck addresses;
  private final RegistrationQuota quota;
  private final int watchQueue;

  /** The shard placement under the ZooKeeper registry; null on the local registry. */
  private volatile Placements placements;

  /** With the default watch limits of {@link NameserverProperties}. */
  public NameserverService(Nameserver ns) {
    this(ns, NameserverProperties.defaults());
  }

  public NameserverService(Nameserver ns, NameserverProperties props) {
    this(ns, props, null);
  }

  /**
   * As {@link #NameserverService(Nameserver, NameserverProperties)}, with registrations made over
   * TLS held to {@code addresses} (null: not checked).
   */
  NameserverService(Nameserver ns, NameserverProperties props, AddressCheck addresses) {
    this(ns, props, addresses, ns);
  }

  /**
   * As {@link #NameserverService(Nameserver, NameserverProperties, AddressCheck)}, answering
   * AssignSeries, ListSeries and ForgetSeries from {@code series} instead of {@code ns}'s own
   * directory.
   */
  NameserverService(
      Nameserver ns, NameserverProperties props, AddressCheck addresses, SeriesDirectory series) {
    this.ns = ns;
    this.series = series;
    this.addresses = addresses;
    this.quota = new RegistrationQuota(props.maxRegistrationsPerCaller);
    this.watchLimits =
        StreamLimits.watches("nameserver", props.maxWatches, props.maxWatchesPerCaller);
    this.watchQueue = props.watchQueue;
  }

  /**
   * Answers AssignSeries from {@code placements} (the ZooKeeper registry's shard placement) instead
   * of this nameserver's series directory, and serves GetPlacement and MoveShards.
   */
  public NameserverService placements(Placements placements) {
    this.placements = placements;
    return this;
  }

  @Override
  public ServerServiceDefinition bindService() {
    return ServerInterceptors.intercept(
        NameserverGrpc.bindService(this),
        new ServerInterceptor() {
          @Override
          public <Q, R> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            Context ctx =
                Context.current()
                    .withValue(
                        CALLER,
                        String.valueOf(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR)));
            return Contexts.interceptCall(ctx, call, headers, next);
          }
        });
  }

  @Override
  public void register(RegisterRequest req, StreamObserver<RegisterResponse> out) {
    Statuses.respond(
        out,
        () -> {
          if (!req.hasRegistration()) {
            throw new IllegalArgumentException("registration is missing");
          }
          Registration reg = req.getRegistration();
          Caller caller = Caller.current();
          if (addresses != null && !sameAddress(reg)) {
            addresses.verify(reg, caller);
          }
          if (caller.authenticated() && caller.role() != Role.ADMIN) {
            quota.admit(caller.key(), reg.getName(), n -> ns.lookup(n).isPresent());
          }
          Registered r = ns.register(reg, req.getTtlSeconds());
          return RegisterResponse.newBuilder()
              .setLeaseId(r.leaseId())
              .setExpiresMs(r.registration().getExpiresMs())
              .setServerTimeMs(ns.millis())
              .build();
        });
  }

  private boolean sameAddress(Registration reg) {
    return ns.lookup(reg.getName())
        .map(
            live ->
                live.getAddress().equals(reg.getAddress()) && live.getKind().equals(reg.getKind()))
        .orElse(false);
  }

  @Override
  public void heartbeat(HeartbeatRequest req, StreamObserver<HeartbeatResponse> out) {
    // The hot path at scale: no lambda, no boxing, just the reply.
    long expires;
    try {
      expires = ns.heartbeat(req.getLeaseId());
    } catch (RuntimeException e) {
      out.onError(Statuses.toStatus(e));
      return;
    }
    if (expires == 0) {
      out.onError(
          Statuses.notFound(
              "lease '" + req.getLeaseId() + "' is unknown or expired; register again"));
      return;
    }
    out.onNext(
        HeartbeatResponse.newBuilder().setExpiresMs(expires).setServerTimeMs(ns.millis()).build());
    out.onCompleted();
  }

  @Override
  public void unregister(UnregisterRequest req, StreamObserver<UnregisterResponse> out) {
    Statuses.respond(
        out,
        () -> UnregisterResponse.newBuilder().setRemoved(ns.unregister(req.getName())).build());
  }

  @Override
  public void lookup(LookupRequest req, StreamObserver<Registration> out) {
    Statuses.respond(
        out,
        () ->
            ns.lookup(req.getName())
                .orElseThrow(
                    () -> Statuses.notFound("no live registration named '" + req.getName() + "'")));
  }

  @Override
  public void search(SearchRequest req, StreamObserver<SearchResponse> out) {
    Statuses.respond(
        out,
        () -> {
          Page<Registration> p =
              ns.search(Filter.parse(req.getFilter()), req.getPageToken(), req.getPageSize());
          return SearchResponse.newBuilder()
              .addAllRegistrations(p.items())
              .setNextPageToken(p.nextToken())
              .build();
        });
  }

  @Override
  public void assignSeries(AssignSeriesRequest req, StreamObserver<AssignSeriesResponse> out) {
    Statuses.respond(
        out,
        () -> {
          try {
            Placements p = placements;
            return AssignSeriesResponse.newBuilder()
                .addAllAssignments(
                    p != null ? p.assign(req.getSeriesList()) : series.assign(req.getSeriesList()))
                .build();
          } catch (IllegalStateException | RegistryException e) {
            throw Statuses.unavailable(e.getMessage());
          }
        });
  }

  @Override
  public void listSeries(ListDirectoryRequest req, StreamObserver<ListDirectoryResponse> out) {
    Statuses.respond(
        out,
        () -> {
          Placements placed = placements;
          if (placed != null) {
            // Under placement nothing per series is kept: an exact name is answered from its
            // shard's placement (where the client library and the dashboard look a series up),
            // a pattern with nothing.
            String name = req.getPattern();
            return ListDirectoryResponse.newBuilder()
                .addAllAssignments(
                    name.isEmpty() || name.contains("*") ? List.of() : placed.locate(name))
                .build();
          }
          Page<SeriesAssignment> p =
              series.directory(req.getPattern(), req.getPageToken(), req.getPageSize());
          return ListDirectoryResponse.newBuilder()
              .addAllAssignments(p.items())
              .setNextPageToken(p.nextToken())
              .build();
        });
  }

  @Override
  public void forgetSeries(ForgetSeriesRequest req, StreamObserver<ForgetSeriesResponse> out) {
    Statuses.respond(
        out,
        () ->
            ForgetSeriesResponse.newBuilder()
                .setForgotten(series.forget(req.getPattern(), req.getMemoryHost()))
                .build());
  }

  @Override
  public void putClique(PutCliqueRequest req, StreamObserver<Clique> out) {
    Statuses.respond(out, () -> ns.putClique(req.getClique()));
  }

  @Override
  public void deleteClique(DeleteCliqueRequest req, StreamObserver<DeleteCliqueResponse> out) {
    Statuses.respond(
        out,
        () -> DeleteCliqueResponse.newBuilder().setRemoved(ns.deleteClique(req.getName())).build());
  }

  @Override
  public void listCliques(ListCliquesRequest req, StreamObserver<ListCliquesResponse> out) {
    Statuses.respond(
        out,
        () -> {
          Page<Clique> p = ns.cliques(req.getHost(), req.getPageToken(), req.getPageSize());
          return ListCliquesResponse.newBuilder()
              .addAllCliques(p.items())
              .setNextPageToken(p.nextToken())
              .build();
        });
  }

  @Override
  public void listMissing(ListMissingRequest req, StreamObserver<ListMissingResponse> out) {
    Statuses.respond(
        out,
        () -> {
          Page<MissingDaemon> p = ns.missing(req.getPageToken(), req.getPageSize());
          return ListMissingResponse.newBuilder()
              .addAllDaemons(p.items())
              .setNextPageToken(p.nextToken())
              .build();
        });
  }

  @Override
  public void watchCliques(WatchCliquesRequest req, StreamObserver<WatchCliquesResponse> out) {
    String caller = CALLER.get() == null ? "unknown" : CALLER.get();
    String refused = watchLimits.acquire(caller);
    if (refused != null) {
      out.onError(
          Status.RESOURCE_EXHAUSTED
              .withDescription(refused + "; poll ListCliques " + "instead, or watch again later")
              .asRuntimeException());
      return;
    }
    CliqueStream stream =
        new CliqueStream((ServerCallStreamObserver<WatchCliquesResponse>) out, watchQueue);
    AutoCloseable watch;
    try {
      watch = ns.watchCliques(req.getHost(), stream);
    } catch (RuntimeException e) {
      watchLimits.release(caller);
      out.onError(Statuses.toStatus(e));
      return;
    }
    stream.onEnd(
        () -> {
          watchLimits.release(caller);
          try {
            watch.close();
          } catch (Exception e) {
            throw new IllegalStateException(e); // the handle only unlinks the sink
          }
        });
  }

  @Override
  public void getPlacement(GetPlacementRequest req, StreamObserver<GetPlacementResponse> out) {
    Statuses.respond(
        out,
        () -> {
          if (!req.getMemoryHost().isEmpty()) {
            RegistrationRules.checkName(req.getMemoryHost());
          }
          try {
            return placementsOrRefuse().show(req.getShardsList(), req.getMemoryHost());
          } catch (RegistryException e) {
            throw Statuses.unavailable(e.getMessage());
          }
        });
  }

  @Override
  public void moveShards(MoveShardsRequest req, StreamObserver<MoveShardsResponse> out) {
    Statuses.respond(
        out,
        () -> {
          for (String name : List.of(req.getFromMemoryHost(), req.getToMemoryHost())) {
            if (!name.isEmpty()) {
              RegistrationRules.checkName(name);
            }
          }
          Placements p = placementsOrRefuse();
          try {
            return MoveShardsResponse.newBuilder()
                .addAllMoved(
                    p.move(req.getShardsList(), req.getFromMemoryHost(), req.getToMemoryHost()))
                .build();
          } catch (StaleVersionException e) {
            throw Status.ABORTED
                .withDescription("the placement kept changing under the move; try again")
                .asRuntimeException();
          } catch (RegistryException e) {
            throw Statuses.unavailable(e.getMessage());
          }
        });
  }

  private Placements placementsOrRefuse() {
    Placements p = placements;
    if (p == null) {
      throw Statuses.failedPrecondition(
          "placement is a feature of the ZooKeeper registry; this nameserver runs with registry:"
              + " local, where AssignSeries keeps its own series directory (see"
              + " docs/placement.md)");
    }
    return p;
  }

  /** Clique watches open now. */
  int openWatches() {
    return watchLimits.open();
  }
}
