package org.netweather.clients;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.DeleteCliqueRequest;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.FetchResponse;
import org.netweather.api.v1.ListCliquesRequest;
import org.netweather.api.v1.ListDirectoryRequest;
import org.netweather.api.v1.ListSeriesRequest;
import org.netweather.api.v1.LookupRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.PutCliqueRequest;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.SeriesSummary;
import org.netweather.api.v1.TimeRange;

/**
 * A small client for NetWeather: registrations and the series directory from the nameserver,
 * measurements from the memory-host that stores each series.
 *
 * <pre>{@code
 * ManagedChannel ns = ManagedChannelBuilder.forTarget("localhost:8090").usePlaintext().build();
 * try (NetWeatherClient client = new NetWeatherClient(ns, Duration.ofSeconds(5),
 *     address -> ManagedChannelBuilder.forTarget(address).usePlaintext().build())) {
 *   client.put("cpu.availability:alpha", List.of(measurement));
 *   FetchResponse last = client.last("cpu.availability:alpha", 10);
 * } finally {
 *   ns.shutdownNow();
 * }
 * }</pre>
 *
 * <p>The nameserver channel is the caller's and is never closed here; channels this client opens
 * to memory-hosts (through {@code channels}) are closed by {@link #close()}. Every call has the
 * deadline given at construction. Failures surface as {@link StatusRuntimeException}.
 *
 * <p>Thread-safe.
 */
public final class NetWeatherClient implements AutoCloseable {
  private final NameserverGrpc.NameserverBlockingStub nameserver;
  private final Duration deadline;
  private final Function<String, ManagedChannel> channels;
  private final Map<String, ManagedChannel> open = new ConcurrentHashMap<>();
  private final Map<String, String> addressOf = new ConcurrentHashMap<>();

  /**
   * @param nameserver channel to the nameserver; not owned
   * @param deadline applied to every call
   * @param channels opens a channel to a {@code host:port}; those channels are owned
   */
  public NetWeatherClient(Channel nameserver, Duration deadline,
      Function<String, ManagedChannel> channels) {
    this.nameserver = NameserverGrpc.newBlockingStub(nameserver);
    this.deadline = deadline;
    this.channels = channels;
  }

  private NameserverGrpc.NameserverBlockingStub ns() {
    return nameserver.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** A blocking memory-host stub with this client's deadline. */
  public MemoryHostGrpc.MemoryHostBlockingStub memoryHost(String address) {
    return MemoryHostGrpc.newBlockingStub(channel(address))
        .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** A channel to {@code address}, opened once and closed with this client. */
  public Channel channel(String address) {
    return open.computeIfAbsent(address, channels);
  }

  public List<Registration> search(String filter) {
    return ns().search(SearchRequest.newBuilder().setFilter(filter).build())
        .getRegistrationsList();
  }

  public Registration lookup(String name) {
    return ns().lookup(LookupRequest.newBuilder().setName(name).build());
  }

  public List<SeriesAssignment> assign(List<String> series) {
    return ns().assignSeries(AssignSeriesRequest.newBuilder().addAllSeries(series).build())
        .getAssignmentsList();
  }

  public List<SeriesAssignment> directory(String pattern) {
    return ns().listSeries(ListDirectoryRequest.newBuilder().setPattern(pattern).build())
        .getAssignmentsList();
  }

  public Clique putClique(Clique clique) {
    return ns().putClique(PutCliqueRequest.newBuilder().setClique(clique).build());
  }

  public boolean deleteClique(String name) {
    return ns().deleteClique(DeleteCliqueRequest.newBuilder().setName(name).build())
        .getRemoved();
  }

  public List<Clique> cliques(String host) {
    return ns().listCliques(ListCliquesRequest.newBuilder().setHost(host).build())
        .getCliquesList();
  }

  /**
   * Stores measurements, each batch on its series' memory-host. Safe to retry: a repeated
   * (series, timestamp) is counted as a duplicate, not stored twice.
   */
  public AppendResponse put(List<SeriesPoints> batches) {
    Map<String, List<SeriesPoints>> byAddress = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    for (SeriesPoints b : batches) {
      names.add(b.getSeries());
    }
    Map<String, String> where = locate(names, false);
    for (SeriesPoints b : batches) {
      byAddress.computeIfAbsent(where.get(b.getSeries()), k -> new ArrayList<>()).add(b);
    }
    long stored = 0;
    long duplicates = 0;
    for (Map.Entry<String, List<SeriesPoints>> e : byAddress.entrySet()) {
      AppendRequest req = AppendRequest.newBuilder().addAllBatches(e.getValue()).build();
      AppendResponse r;
      try {
        r = memoryHost(e.getKey()).append(req);
      } catch (StatusRuntimeException ex) {
        if (ex.getStatus().getCode() != Status.Code.UNAVAILABLE) {
          throw ex;
        }
        // The memory-host may have moved: ask again and retry once.
        List<String> moved = new ArrayList<>();
        e.getValue().forEach(b -> moved.add(b.getSeries()));
        Map<String, String> now = locate(moved, true);
        r = memoryHost(now.get(moved.get(0))).append(req);
      }
      stored += r.getStored();
      duplicates += r.getDuplicates();
    }
    return AppendResponse.newBuilder().setStored(stored).setDuplicates(duplicates).build();
  }

  /** Stores one series' measurements. */
  public AppendResponse put(String series, List<Measurement> points) {
    return put(List.of(SeriesPoints.newBuilder().setSeries(series).addAllPoints(points).build()));
  }

  /** The newest {@code n} raw points of a series. */
  public FetchResponse last(String series, int n) {
    return memoryHost(locateExisting(series)).fetch(
        FetchRequest.newBuilder().setSeries(series).setLast(n).build());
  }

  /** Raw points of a series in [fromMs, toMs]; toMs = 0 means now. */
  public FetchResponse range(String series, long fromMs, long toMs) {
    return memoryHost(locateExisting(series)).fetch(FetchRequest.newBuilder().setSeries(series)
        .setRange(TimeRange.newBuilder().setFromMs(fromMs).setToMs(toMs)).build());
  }

  /** Summaries of every series on every live memory-host, optionally matching a pattern. */
  public List<SeriesSummary> series(String pattern) {
    List<SeriesSummary> out = new ArrayList<>();
    for (Registration m : search("(kind=memory)")) {
      out.addAll(memoryHost(m.getAddress()).listSeries(
          ListSeriesRequest.newBuilder().setPattern(pattern).build()).getSeriesList());
    }
    out.sort((a, b) -> a.getSeries().compareTo(b.getSeries()));
    return out;
  }

  private String locateExisting(String series) {
    String cached = addressOf.get(series);
    if (cached != null) {
      return cached;
    }
    for (SeriesAssignment a : directory(series)) {
      if (a.getSeries().equals(series) && !a.getAddress().isEmpty()) {
        addressOf.put(series, a.getAddress());
        return a.getAddress();
      }
    }
    throw Status.NOT_FOUND.withDescription("series '" + series + "' is unknown to the nameserver")
        .asRuntimeException();
  }

  private Map<String, String> locate(List<String> series, boolean refresh) {
    Map<String, String> out = new LinkedHashMap<>();
    List<String> ask = new ArrayList<>();
    for (String s : series) {
      String a = refresh ? null : addressOf.get(s);
      if (a == null) {
        ask.add(s);
      } else {
        out.put(s, a);
      }
    }
    if (!ask.isEmpty()) {
      for (SeriesAssignment a : assign(ask)) {
        addressOf.put(a.getSeries(), a.getAddress());
        out.put(a.getSeries(), a.getAddress());
      }
    }
    return out;
  }

  /** Closes the channels this client opened; the nameserver channel stays open. */
  @Override
  public void close() {
    for (ManagedChannel c : open.values()) {
      c.shutdownNow();
    }
    for (ManagedChannel c : open.values()) {
      try {
        c.awaitTermination(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    open.clear();
  }
}
