package org.netweather.client;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.DeleteSeriesRequest;
import org.netweather.api.v1.DeleteSeriesResponse;
import org.netweather.api.v1.FetchConsolidatedRequest;
import org.netweather.api.v1.FetchConsolidatedResponse;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.FetchResponse;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastPointsRequest;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.GetForecastsResponse;
import org.netweather.api.v1.GetSnapshotRequest;
import org.netweather.api.v1.ListSeriesRequest;
import org.netweather.api.v1.ListSeriesResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.ProxyGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.Resolution;
import org.netweather.api.v1.RetentionRequest;
import org.netweather.api.v1.RetentionResponse;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.SeriesSummary;
import org.netweather.api.v1.TimeRange;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.netweather.api.v1.WatchSnapshotRequest;

/**
 * The Java client of NetWeather, for schedulers and tools: it finds every daemon through the
 * nameserver, so a caller names only the nameserver.
 *
 * <pre>{@code
 * try (NetWeatherClient nws = NetWeatherClient.forAddress("ns.example:8090")
 *     .deadline(Duration.ofSeconds(5)).build()) {
 *   nws.put("cpu.availability:alpha", List.of(measurement));
 *   Forecast next = nws.forecast("cpu.availability:alpha", Criterion.CRITERION_MSE);
 *   ClusterSnapshot lab = nws.snapshot("lab");
 * }
 * }</pre>
 *
 * <p>Every call has the builder's deadline, retries included. A call is retried only where its
 * rpc's documentation says it is safe (see {@code api/src/main/proto/netweather/v1}); streams are
 * never retried, their caller resumes. Failures surface as {@link StatusRuntimeException}.
 *
 * <p>Channels: a nameserver channel passed to {@link #forChannel} stays the caller's; one built
 * from an address by {@link #forAddress} is closed by {@link #close()}, as is every channel this
 * client opens to other daemons.
 *
 * <p>Thread-safe.
 */
public final class NetWeatherClient implements AutoCloseable {
  /** Waits between retries; tests pass one that records instead of sleeping. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  private final NameserverCalls nameserver;
  private final ManagedChannel ownedNameserver;
  private final String nameserverTarget;
  private final ChannelPool channels;
  private final Retrier retrier;
  private final SeriesLocator locator;
  private final AppendStreams appendStreams;
  private final boolean streamAppends;
  private final Set<String> withoutAppendStream = ConcurrentHashMap.newKeySet();
  private final ShardRouter router;
  private final RoutedForecasts routed;
  private final Duration forecasterRefresh;
  private final java.util.function.LongSupplier nanoTime;
  private final ScheduledExecutorService givenScheduler;
  private ScheduledExecutorService ownedScheduler;

  private NetWeatherClient(NetWeatherClientBuilder b, Channel ns, ManagedChannel owned) {
    this.ownedNameserver = owned;
    this.nameserverTarget = b.target != null ? b.target : ns.authority();
    this.retrier = new Retrier(b.deadline, b.maxAttempts, b.backoff, b.sleeper);
    this.nameserver = new NameserverCalls(ns, retrier);
    this.channels = new ChannelPool(b::open);
    this.locator = new SeriesLocator(nameserver::assign, nameserver::directory);
    this.appendStreams = new AppendStreams(channels::get);
    this.streamAppends = b.appendStreams;
    this.forecasterRefresh = b.forecasterRefresh;
    this.nanoTime = b.nanoTime;
    this.givenScheduler = b.scheduler;
    this.router =
        new ShardRouter(
            () -> nameserver.search("(kind=forecaster)"),
            b.forecasterRefresh,
            b.nanoTime,
            nameserverTarget);
    this.routed = new RoutedForecasts(router, channels::get);
  }

  /** A client that builds, and later closes, its own channel to the nameserver. */
  public static NetWeatherClientBuilder forAddress(String nameserver) {
    return new NetWeatherClientBuilder(nameserver, null);
  }

  /** A client over the caller's nameserver channel, which {@link #close()} leaves open. */
  public static NetWeatherClientBuilder forChannel(Channel nameserver) {
    return new NetWeatherClientBuilder(null, nameserver);
  }

  static NetWeatherClient build(NetWeatherClientBuilder b) {
    if (b.channel != null) {
      return new NetWeatherClient(b, b.channel, null);
    }
    ManagedChannel owned = b.open(b.target);
    return new NetWeatherClient(b, owned, owned);
  }

  /** The nameserver as given: its address, or the authority of the channel given. */
  public String nameserver() {
    return nameserverTarget;
  }

  /** The deadline of every call. */
  public Duration deadline() {
    return retrier.deadline();
  }

  /** Registrations, leases, the series directory and cliques: the nameserver's calls. */
  public NameserverCalls registry() {
    return nameserver;
  }

  /** A channel to {@code address}, opened once and closed with this client. */
  public Channel channel(String address) {
    return channels.get(address);
  }

  // ---- shortcuts to the nameserver ----

  public List<Registration> search(String filter) {
    return nameserver.search(filter);
  }

  public Registration lookup(String name) {
    return nameserver.lookup(name);
  }

  public List<SeriesAssignment> assign(List<String> series) {
    return nameserver.assign(series);
  }

  public List<SeriesAssignment> directory(String pattern) {
    return nameserver.directory(pattern);
  }

  public Clique putClique(Clique clique) {
    return nameserver.putClique(clique);
  }

  public boolean deleteClique(String name) {
    return nameserver.deleteClique(name);
  }

  public List<Clique> cliques(String host) {
    return nameserver.cliques(host);
  }

  // ---- measurements: the memory-hosts ----

  /**
   * Stores measurements, each batch on its series' memory-host. Safe to retry: a repeated (series,
   * timestamp) is counted as a duplicate, not stored twice. A memory-host that stays UNAVAILABLE
   * may have handed its series on, so the directory is asked again, once.
   */
  public AppendResponse put(List<SeriesPoints> batches) {
    List<String> names = batches.stream().map(SeriesPoints::getSeries).toList();
    Map<String, String> where = locator.assigned(names, false);
    Map<String, List<SeriesPoints>> byAddress = new LinkedHashMap<>();
    for (SeriesPoints b : batches) {
      byAddress.computeIfAbsent(where.get(b.getSeries()), k -> new ArrayList<>()).add(b);
    }
    long stored = 0;
    long duplicates = 0;
    for (Map.Entry<String, List<SeriesPoints>> e : byAddress.entrySet()) {
      AppendRequest req = AppendRequest.newBuilder().addAllBatches(e.getValue()).build();
      AppendResponse r;
      try {
        r = append(e.getKey(), req);
      } catch (StatusRuntimeException ex) {
        if (ex.getStatus().getCode() != Status.Code.UNAVAILABLE) {
          throw ex;
        }
        List<String> moved = e.getValue().stream().map(SeriesPoints::getSeries).toList();
        r = append(locator.assigned(moved, true).get(moved.get(0)), req);
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

  /** Appends a batch on the memory-host at {@code address}, for callers that route themselves. */
  public AppendResponse append(String address, AppendRequest request) {
    return retrier.call(Retrier.SAFE, d -> memoryHost(address).withDeadline(d).append(request));
  }

  /**
   * As {@link #append(String, AppendRequest)}, over one long-lived stream to that memory-host: for
   * callers that deliver all the time (the sensor), since a batch on a stream costs the memory-host
   * much less than a call. One try under the client's deadline; the same results and status codes.
   * A memory-host without AppendStream gets unary calls instead.
   */
  public AppendResponse appendOnStream(String address, AppendRequest request) {
    if (streamAppends && !withoutAppendStream.contains(address)) {
      try {
        return appendStreams.append(address, request, retrier.deadline());
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
          throw e;
        }
        withoutAppendStream.add(address);
      }
    }
    return append(address, request);
  }

  /** The newest {@code n} raw points of a series. */
  public FetchResponse last(String series, int n) {
    return fetch(FetchRequest.newBuilder().setSeries(series).setLast(n).build());
  }

  /** Raw points of a series in [fromMs, toMs]; toMs = 0 means now. */
  public FetchResponse range(String series, long fromMs, long toMs) {
    return fetch(
        FetchRequest.newBuilder()
            .setSeries(series)
            .setRange(TimeRange.newBuilder().setFromMs(fromMs).setToMs(toMs))
            .build());
  }

  private FetchResponse fetch(FetchRequest request) {
    String address = locator.existing(request.getSeries());
    return retrier.call(Retrier.SAFE, d -> memoryHost(address).withDeadline(d).fetch(request));
  }

  /** Consolidated rows (average, min, max per step) of a series in [fromMs, toMs]. */
  public FetchConsolidatedResponse consolidated(
      String series, Resolution resolution, long fromMs, long toMs) {
    String address = locator.existing(series);
    FetchConsolidatedRequest req =
        FetchConsolidatedRequest.newBuilder()
            .setSeries(series)
            .setResolution(resolution)
            .setRange(TimeRange.newBuilder().setFromMs(fromMs).setToMs(toMs))
            .build();
    return retrier.call(
        Retrier.SAFE, d -> memoryHost(address).withDeadline(d).fetchConsolidated(req));
  }

  /** Summaries of every series on every live memory-host, optionally matching a pattern. */
  public List<SeriesSummary> series(String pattern) {
    List<SeriesSummary> out = new ArrayList<>();
    for (Registration m : search("(kind=memory)")) {
      String token = "";
      do {
        ListSeriesRequest req =
            ListSeriesRequest.newBuilder()
                .setPattern(pattern)
                .setPageSize(10_000)
                .setPageToken(token)
                .build();
        ListSeriesResponse page =
            retrier.call(
                Retrier.SAFE, d -> memoryHost(m.getAddress()).withDeadline(d).listSeries(req));
        out.addAll(page.getSeriesList());
        token = page.getNextPageToken();
      } while (!token.isEmpty());
    }
    out.sort((a, b) -> a.getSeries().compareTo(b.getSeries()));
    return out;
  }

  /**
   * Deletes the series matching {@code pattern} on every live memory-host (or, with {@code dryRun},
   * lists them), one response per memory-host address. Only {@code dryRun} false sends the
   * request's {@code force}, without which a memory-host deletes nothing. Each memory-host that
   * deleted is then asked off the directory for that pattern, so the series leave the directory
   * listings too (and a later append assigns them afresh).
   */
  public java.util.Map<String, DeleteSeriesResponse> deleteSeries(String pattern, boolean dryRun) {
    java.util.Map<String, DeleteSeriesResponse> out = new java.util.TreeMap<>();
    DeleteSeriesRequest req =
        DeleteSeriesRequest.newBuilder().setPattern(pattern).setForce(!dryRun).build();
    for (Registration m : search("(kind=memory)")) {
      out.put(
          m.getAddress(),
          retrier.call(
              Retrier.SAFE, d -> memoryHost(m.getAddress()).withDeadline(d).deleteSeries(req)));
      if (!dryRun) {
        nameserver.forgetSeries(pattern, m.getName());
      }
    }
    if (!dryRun) {
      locator.clear();
    }
    return out;
  }

  /** Reads (an empty request) or sets the raw-point retention of every live memory-host. */
  public java.util.Map<String, RetentionResponse> retention(RetentionRequest request) {
    java.util.Map<String, RetentionResponse> out = new java.util.TreeMap<>();
    for (Registration m : search("(kind=memory)")) {
      out.put(
          m.getAddress(),
          retrier.call(
              Retrier.SAFE, d -> memoryHost(m.getAddress()).withDeadline(d).retention(request)));
    }
    return out;
  }

  /**
   * Streams one memory-host's stored points after {@code request.since_ms}, then its appends. No
   * deadline: a watch lasts until closed or ended by the server.
   */
  public Subscription watch(
      String memoryHostAddress, WatchRequest request, StreamObserver<WatchResponse> observer) {
    Subscription s = new Subscription();
    MemoryHostGrpc.newStub(channel(memoryHostAddress)).watch(request, s.bind(observer));
    return s;
  }

  private MemoryHostGrpc.MemoryHostBlockingStub memoryHost(String address) {
    return MemoryHostGrpc.newBlockingStub(channel(address));
  }

  // ---- forecasts: the forecasters ----
  // On a site whose forecasters share the shards, each call goes to the forecasters that serve its
  // series (ShardRouter, docs/routing.md); with one forecaster, to it.

  /** The forecast of one series, from the forecaster that serves it. */
  public Forecast forecast(String series, Criterion criterion) {
    return forecast(
        GetForecastRequest.newBuilder().setSeries(series).setCriterion(criterion).build());
  }

  /**
   * The forecast of one series as {@code req} asks (coverage of its interval, ...), from the
   * forecaster that serves it; asked once more where that one says if it no longer does.
   */
  public Forecast forecast(GetForecastRequest req) {
    return retrier.call(Retrier.SAFE, d -> routed.forecast(req, d));
  }

  /**
   * Forecasts of several series as {@code req} asks: names from the forecasters that serve them,
   * patterns from every forecaster, merged into one answer. A pattern is in {@code not_found} only
   * if no forecaster matched it; names no forecaster would serve even when asked again are in
   * {@code not_owned} (a handoff in progress: ask again shortly).
   */
  public GetForecastsResponse forecasts(GetForecastsRequest req) {
    return retrier.call(Retrier.SAFE, d -> routed.forecasts(req, d));
  }

  /** Forecasts of several series, named or matched by patterns such as {@code tcp.*:a->*}. */
  public GetForecastsResponse forecasts(List<String> seriesOrPatterns, Criterion criterion) {
    return forecasts(
        GetForecastsRequest.newBuilder()
            .addAllSeries(seriesOrPatterns)
            .setCriterion(criterion)
            .build());
  }

  /** The forecast of the next of {@code points}, which are not stored. */
  public Forecast forecastPoints(String label, List<Measurement> points, Criterion criterion) {
    ForecastPointsRequest req =
        ForecastPointsRequest.newBuilder()
            .setSeries(label)
            .addAllPoints(points)
            .setCriterion(criterion)
            .build();
    return retrier.call(
        Retrier.SAFE,
        d -> {
          try {
            return forecaster().withDeadline(d).forecastPoints(req);
          } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
              router.invalidate(); // it may be gone: the next try lists the forecasters again
            }
            throw e;
          }
        });
  }

  /**
   * The current forecasts of the matching series, then each new one.
   *
   * <p>With one forecaster this is its stream, and ends as it ends. On a site whose forecasters
   * share the shards it is one stream per forecaster serving some of the series, merged, which
   * re-route themselves when a shard moves or the forecaster list changes and re-open with backoff
   * when a forecaster fails; only INVALID_ARGUMENT ends it (and CANCELLED once it is closed).
   */
  public Subscription watchForecasts(
      List<String> seriesOrPatterns, Criterion criterion, StreamObserver<ForecastUpdate> observer) {
    GetForecastsRequest req =
        GetForecastsRequest.newBuilder()
            .addAllSeries(seriesOrPatterns)
            .setCriterion(criterion)
            .build();
    ShardRouter.View view = router.current();
    if (view.sharded()) {
      RoutedWatch w = new RoutedWatch(router, channels::get, req, observer, scheduler(), nanoTime);
      w.start(view, forecasterRefresh);
      return new Subscription(w);
    }
    Subscription s = new Subscription();
    ForecasterGrpc.newStub(channel(view.any()))
        .watchForecasts(req, s.bind(lookAgainAfter(observer)));
    return s;
  }

  /** Passes a stream's messages on; once it ends, the next call looks the forecaster up again. */
  private StreamObserver<ForecastUpdate> lookAgainAfter(StreamObserver<ForecastUpdate> observer) {
    return new StreamObserver<>() {
      @Override
      public void onNext(ForecastUpdate u) {
        observer.onNext(u);
      }

      @Override
      public void onError(Throwable t) {
        if (Status.fromThrowable(t).getCode() != Status.Code.CANCELLED) {
          router.invalidate();
        }
        observer.onError(t);
      }

      @Override
      public void onCompleted() {
        router.invalidate();
        observer.onCompleted();
      }
    };
  }

  /** Which forecaster serves which series, as this client routes its forecast calls. */
  public ShardRouter forecasters() {
    return router;
  }

  private ForecasterGrpc.ForecasterBlockingStub forecaster() {
    return ForecasterGrpc.newBlockingStub(channel(router.current().any()));
  }

  private synchronized ScheduledExecutorService scheduler() {
    if (givenScheduler != null) {
      return givenScheduler;
    }
    if (ownedScheduler == null) {
      ownedScheduler =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "nws-client-forecast-watch");
                t.setDaemon(true);
                return t;
              });
    }
    return ownedScheduler;
  }

  // ---- cluster snapshots: the proxies ----

  /**
   * The snapshot of a cluster from its proxy; with {@code cluster} null, of the only cluster that
   * has a proxy.
   *
   * @throws AmbiguousClusterException if {@code cluster} is null and several clusters have one
   */
  public ClusterSnapshot snapshot(String cluster) {
    String address = proxyFor(cluster).getAddress();
    GetSnapshotRequest req =
        GetSnapshotRequest.newBuilder().setCluster(cluster == null ? "" : cluster).build();
    return retrier.call(
        Retrier.SAFE,
        d -> ProxyGrpc.newBlockingStub(channel(address)).withDeadline(d).getSnapshot(req));
  }

  /** The current snapshot, then a new one whenever a value changes (one per interval at most). */
  public Subscription watchSnapshot(
      String cluster, Duration minInterval, StreamObserver<ClusterSnapshot> observer) {
    String address = proxyFor(cluster).getAddress();
    WatchSnapshotRequest req =
        WatchSnapshotRequest.newBuilder()
            .setCluster(cluster == null ? "" : cluster)
            .setMinIntervalMs(minInterval.toMillis())
            .build();
    Subscription s = new Subscription();
    ProxyGrpc.newStub(channel(address)).watchSnapshot(req, s.bind(observer));
    return s;
  }

  /** The proxy that serves {@code cluster} (or the only proxy, when null). */
  public Registration proxyFor(String cluster) {
    String filter = cluster == null ? "(kind=proxy)" : "(&(kind=proxy)(cluster=" + cluster + "))";
    List<Registration> proxies = search(filter);
    if (proxies.isEmpty()) {
      throw Status.NOT_FOUND
          .withDescription(
              cluster == null
                  ? "no proxy is registered"
                  : "no proxy serves cluster '" + cluster + "'")
          .asRuntimeException();
    }
    if (cluster == null && proxies.size() > 1) {
      throw new AmbiguousClusterException(
          proxies.stream().map(r -> r.getAttributesOrDefault("cluster", "?")).toList());
    }
    return proxies.get(0);
  }

  // ---- any daemon ----

  /**
   * What the daemon at {@code address} says to a health check, and the identity its certificate
   * proves when the connection is TLS; not retried.
   */
  public DaemonHealth identifiedHealth(String address, Duration timeout) {
    java.util.concurrent.atomic.AtomicReference<javax.net.ssl.SSLSession> tls =
        new java.util.concurrent.atomic.AtomicReference<>();
    io.grpc.ClientInterceptor peek =
        new io.grpc.ClientInterceptor() {
          @Override
          public <Q, R> io.grpc.ClientCall<Q, R> interceptCall(
              io.grpc.MethodDescriptor<Q, R> method,
              io.grpc.CallOptions options,
              io.grpc.Channel next) {
            return new io.grpc.ForwardingClientCall.SimpleForwardingClientCall<>(
                next.newCall(method, options)) {
              @Override
              public void start(Listener<R> listener, io.grpc.Metadata headers) {
                io.grpc.ClientCall<Q, R> call = this;
                super.start(
                    new io.grpc.ForwardingClientCallListener.SimpleForwardingClientCallListener<>(
                        listener) {
                      @Override
                      public void onHeaders(io.grpc.Metadata h) {
                        tls.set(call.getAttributes().get(io.grpc.Grpc.TRANSPORT_ATTR_SSL_SESSION));
                        super.onHeaders(h);
                      }
                    },
                    headers);
              }
            };
          }
        };
    HealthCheckResponse.ServingStatus status =
        HealthGrpc.newBlockingStub(io.grpc.ClientInterceptors.intercept(channel(address), peek))
            .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .check(HealthCheckRequest.getDefaultInstance())
            .getStatus();
    javax.net.ssl.SSLSession session = tls.get();
    if (session == null) {
      return new DaemonHealth(status, false, "");
    }
    String identity = "";
    try {
      java.security.cert.Certificate[] chain = session.getPeerCertificates();
      if (chain.length > 0 && chain[0] instanceof java.security.cert.X509Certificate cert) {
        identity = DaemonHealth.identityOf(cert);
      }
    } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
      identity = "";
    }
    return new DaemonHealth(status, true, identity);
  }

  /** What the standard health service of the daemon at {@code address} says; not retried. */
  public HealthCheckResponse.ServingStatus health(String address, Duration timeout) {
    return HealthGrpc.newBlockingStub(channel(address))
        .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .check(HealthCheckRequest.getDefaultInstance())
        .getStatus();
  }

  /**
   * Lets the channels to daemons try to connect now. After failures a channel waits out gRPC's
   * reconnect back-off (growing to two minutes) and fails calls fast meanwhile; a caller that
   * retries on its own schedule (the sensor's delivery) calls this before each retry, so a daemon
   * that is back is reached at the next try.
   */
  public void resetConnectBackoff() {
    channels.resetConnectBackoff();
  }

  /** Closes the channels this client built; a nameserver channel it was given stays open. */
  @Override
  public void close() {
    synchronized (this) {
      if (ownedScheduler != null) {
        ownedScheduler.shutdownNow();
      }
    }
    appendStreams.close();
    channels.close();
    if (ownedNameserver != null) {
      ownedNameserver.shutdownNow();
      try {
        ownedNameserver.awaitTermination(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Several clusters have proxies and none was named. */
  public static final class AmbiguousClusterException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final List<String> clusters;

    AmbiguousClusterException(List<String> clusters) {
      super("several clusters have proxies; name one (" + String.join(", ", clusters) + ")");
      this.clusters = List.copyOf(clusters);
    }

    public List<String> clusters() {
      return clusters;
    }
  }
}
