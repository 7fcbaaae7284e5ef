package org.netweather.client;

import io.grpc.Channel;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.DeleteCliqueRequest;
import org.netweather.api.v1.ForgetSeriesRequest;
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
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.PutCliqueRequest;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.RegisterResponse;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.api.v1.UnregisterRequest;

/**
 * The nameserver's calls: registrations and leases, search, the series directory and cliques.
 * Register, Unregister, AssignSeries, PutClique and DeleteClique are retried on UNAVAILABLE and
 * DEADLINE_EXCEEDED, as the service documents; the others are tried once. Listings come in pages;
 * the methods returning lists follow them to the end, each page a call of its own.
 *
 * <p>Over a {@link FailoverChannel} of several nameservers, the reads (Lookup, Search and the
 * listings) are retried on UNAVAILABLE and DEADLINE_EXCEEDED too: they change nothing, and the
 * retry goes to the next nameserver of the list. Heartbeat stays a single try: its caller decides.
 */
public final class NameserverCalls {
  private final NameserverGrpc.NameserverBlockingStub stub;
  private final Retrier retrier;

  /** What a read is retried on: nothing with one nameserver, a failover with several. */
  private final Set<Status.Code> reads;

  NameserverCalls(Channel nameserver, Retrier retrier) {
    this.stub = NameserverGrpc.newBlockingStub(nameserver);
    this.retrier = retrier;
    this.reads =
        nameserver instanceof FailoverChannel f && f.size() > 1
            ? Retrier.NAMESERVER_WRITE
            : Retrier.NEVER;
  }

  /** Registers (or re-registers) {@code registration} for a lease of {@code ttlSeconds}. */
  public RegisterResponse register(Registration registration, long ttlSeconds) {
    RegisterRequest req =
        RegisterRequest.newBuilder()
            .setRegistration(registration)
            .setTtlSeconds(ttlSeconds)
            .build();
    return retrier.call(Retrier.NAMESERVER_WRITE, d -> stub.withDeadline(d).register(req));
  }

  /** Extends a lease; NOT_FOUND means it expired and the holder must register again. */
  public HeartbeatResponse heartbeat(String leaseId) {
    HeartbeatRequest req = HeartbeatRequest.newBuilder().setLeaseId(leaseId).build();
    return retrier.call(Retrier.NEVER, d -> stub.withDeadline(d).heartbeat(req));
  }

  /** Removes a registration; whether a live one was removed. */
  public boolean unregister(String name) {
    UnregisterRequest req = UnregisterRequest.newBuilder().setName(name).build();
    return retrier
        .call(Retrier.NAMESERVER_WRITE, d -> stub.withDeadline(d).unregister(req))
        .getRemoved();
  }

  public Registration lookup(String name) {
    LookupRequest req = LookupRequest.newBuilder().setName(name).build();
    return retrier.call(reads, d -> stub.withDeadline(d).lookup(req));
  }

  /** Every live registration matching an LDAP-style filter such as {@code (kind=memory)}. */
  public List<Registration> search(String filter) {
    List<Registration> out = new ArrayList<>();
    String token = "";
    do {
      SearchResponse page =
          search(SearchRequest.newBuilder().setFilter(filter).setPageToken(token).build());
      out.addAll(page.getRegistrationsList());
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    return out;
  }

  /** One page of a search, for callers that page themselves. */
  public SearchResponse search(SearchRequest request) {
    return retrier.call(reads, d -> stub.withDeadline(d).search(request));
  }

  /** The memory-host of each series, assigning one to new series. */
  public List<SeriesAssignment> assign(List<String> series) {
    AssignSeriesRequest req = AssignSeriesRequest.newBuilder().addAllSeries(series).build();
    return retrier
        .call(Retrier.NAMESERVER_WRITE, d -> stub.withDeadline(d).assignSeries(req))
        .getAssignmentsList();
  }

  /** The whole series directory, optionally only series matching {@code pattern}. */
  public List<SeriesAssignment> directory(String pattern) {
    List<SeriesAssignment> out = new ArrayList<>();
    String token = "";
    do {
      ListDirectoryRequest req =
          ListDirectoryRequest.newBuilder().setPattern(pattern).setPageToken(token).build();
      ListDirectoryResponse page = retrier.call(reads, d -> stub.withDeadline(d).listSeries(req));
      out.addAll(page.getAssignmentsList());
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    return out;
  }

  /**
   * Drops the directory entries matching {@code pattern} (on {@code memoryHost} only, unless
   * empty); how many were dropped.
   */
  public long forgetSeries(String pattern, String memoryHost) {
    ForgetSeriesRequest req =
        ForgetSeriesRequest.newBuilder().setPattern(pattern).setMemoryHost(memoryHost).build();
    return retrier
        .call(Retrier.NAMESERVER_WRITE, d -> stub.withDeadline(d).forgetSeries(req))
        .getForgotten();
  }

  public Clique putClique(Clique clique) {
    PutCliqueRequest req = PutCliqueRequest.newBuilder().setClique(clique).build();
    return retrier.call(Retrier.NAMESERVER_WRITE, d -> stub.withDeadline(d).putClique(req));
  }

  /** Deletes a clique; whether one was removed. */
  public boolean deleteClique(String name) {
    DeleteCliqueRequest req = DeleteCliqueRequest.newBuilder().setName(name).build();
    return retrier
        .call(Retrier.NAMESERVER_WRITE, d -> stub.withDeadline(d).deleteClique(req))
        .getRemoved();
  }

  /** Clique definitions, optionally only those that include {@code host} (empty: all). */
  public List<Clique> cliques(String host) {
    List<Clique> out = new ArrayList<>();
    String token = "";
    do {
      ListCliquesRequest req =
          ListCliquesRequest.newBuilder().setHost(host).setPageToken(token).build();
      ListCliquesResponse page = retrier.call(reads, d -> stub.withDeadline(d).listCliques(req));
      out.addAll(page.getCliquesList());
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    return out;
  }

  /**
   * Daemons the nameserver knew that are gone (lease expired or unregistered), kept by it for a
   * while; see {@code ListMissing}.
   */
  public List<MissingDaemon> missing() {
    List<MissingDaemon> out = new ArrayList<>();
    String token = "";
    do {
      ListMissingRequest req = ListMissingRequest.newBuilder().setPageToken(token).build();
      ListMissingResponse page = retrier.call(reads, d -> stub.withDeadline(d).listMissing(req));
      out.addAll(page.getDaemonsList());
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    return out;
  }

  /**
   * The memory-host placement of {@code shards} (empty: every shard), only those placed on {@code
   * memoryHost} unless it is empty; FAILED_PRECONDITION from a nameserver on the local registry.
   */
  public GetPlacementResponse placement(List<Integer> shards, String memoryHost) {
    GetPlacementRequest req =
        GetPlacementRequest.newBuilder().addAllShards(shards).setMemoryHost(memoryHost).build();
    return retrier.call(Retrier.NEVER, d -> stub.withDeadline(d).getPlacement(req));
  }

  /**
   * Places {@code shards}, or every shard placed on {@code fromMemoryHost}, on {@code
   * toMemoryHost}; the shards whose placement changed. Safe to retry: a shard already there stays.
   */
  public List<Integer> moveShards(
      List<Integer> shards, String fromMemoryHost, String toMemoryHost) {
    MoveShardsRequest req =
        MoveShardsRequest.newBuilder()
            .addAllShards(shards)
            .setFromMemoryHost(fromMemoryHost)
            .setToMemoryHost(toMemoryHost)
            .build();
    return retrier
        .call(Retrier.NAMESERVER_WRITE, d -> stub.withDeadline(d).moveShards(req))
        .getMovedList();
  }
}
