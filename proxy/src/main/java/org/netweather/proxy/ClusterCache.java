package org.netweather.proxy;

import com.github.benmanes.caffeine.cache.CacheLoader;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.PairSnapshot;
import org.netweather.api.v1.ResourceForecast;

/**
 * The latest forecast of every series of one cluster, and snapshots built from them.
 *
 * <p>Forecasts arrive from the forecaster's stream ({@link #put}). Entries live in a Caffeine cache
 * with a hard expiry by measurement age, so a series that stops being measured eventually drops out
 * and shows as missing, and with refresh-after-write, so an entry the stream has not renewed for a
 * while is fetched again on its own. A value is <em>stale</em> when its last measurement is older
 * than a few of its series' measurement periods (learnt from successive forecasts); a stale value
 * is served marked stale, never as fresh.
 *
 * <p>Snapshots are rebuilt only when something changed or the last one has aged past {@code
 * rebuildMs}, so a burst of readers shares one build; in the daemon the rebuild runs in the
 * background and readers only ever take a prebuilt snapshot.
 *
 * <p>Thread-safe.
 */
public final class ClusterCache {
  private final String cluster;
  private final LongSupplier clockMs;
  private final Settings settings;
  private final LoadingCache<String, Forecast> forecasts;
  private final Map<String, Long> periods = new ConcurrentHashMap<>();
  private final AtomicLong version = new AtomicLong();
  private volatile SeriesKeys keys = new SeriesKeys(List.of());
  private volatile EncodedSnapshot built;
  private volatile boolean background;

  /** Staleness and cache timing. */
  public record Settings(
      double staleFactor,
      long minStaleMs,
      long defaultStaleMs,
      Duration refreshAfter,
      Duration expireAfter,
      long rebuildMs) {
    public static Settings defaults() {
      // The forecaster's stream keeps entries current and resends everything when it
      // reconnects, so refreshing is only a safety net: rare, or 64 hosts' 8 000 series would
      // cost the forecaster hundreds of calls a second.
      return new Settings(3.0, 10_000, 300_000, Duration.ofMinutes(5), Duration.ofHours(1), 1_000);
    }
  }

  /**
   * @param fetch reads one forecast from the forecaster, for refreshes; returns null if the
   *     forecaster does not know the series
   * @param ticker Caffeine's clock (a fake one in tests)
   * @param clockMs wall clock for ages, epoch milliseconds
   */
  public ClusterCache(
      String cluster,
      Settings settings,
      Function<String, Forecast> fetch,
      Executor refreshExecutor,
      Ticker ticker,
      LongSupplier clockMs) {
    this.cluster = cluster;
    this.settings = settings;
    this.clockMs = clockMs;
    this.forecasts =
        Caffeine.newBuilder()
            .ticker(ticker)
            .executor(refreshExecutor)
            .refreshAfterWrite(settings.refreshAfter())
            .expireAfter(new MeasurementAgeExpiry())
            .build(
                new CacheLoader<String, Forecast>() {
                  @Override
                  public Forecast load(String series) {
                    return fetch.apply(series);
                  }

                  @Override
                  public Forecast reload(String series, Forecast old) {
                    Forecast f = fetch.apply(series);
                    if (f == null || f.equals(old)) {
                      return old; // nothing new: no rebuild
                    }
                    notePeriod(old, f);
                    version.incrementAndGet();
                    return f;
                  }
                });
  }

  /**
   * Expires an entry once its last measurement is {@code expireAfter} old, counted from the
   * measurement rather than the cache write, so a refresh that finds nothing new cannot keep a dead
   * series alive.
   */
  private final class MeasurementAgeExpiry implements Expiry<String, Forecast> {
    private long remaining(Forecast f) {
      long age = clockMs.getAsLong() - f.getLast().getTimestampMs();
      return Math.max(0, settings.expireAfter().toMillis() - age) * 1_000_000L;
    }

    @Override
    public long expireAfterCreate(String key, Forecast value, long now) {
      return remaining(value);
    }

    @Override
    public long expireAfterUpdate(String key, Forecast value, long now, long current) {
      return remaining(value);
    }

    @Override
    public long expireAfterRead(String key, Forecast value, long now, long current) {
      return current;
    }
  }

  public String cluster() {
    return cluster;
  }

  /** Sets the cluster's hosts, in display order. */
  public void setHosts(List<String> newHosts) {
    if (!newHosts.equals(keys.hosts)) {
      keys = new SeriesKeys(List.copyOf(newHosts));
      version.incrementAndGet();
    }
  }

  public List<String> hosts() {
    return keys.hosts;
  }

  /** Forecasts held, Caffeine's estimate: cheap, and may count expired entries not yet evicted. */
  public long cachedForecasts() {
    return forecasts.estimatedSize();
  }

  /** Takes a new forecast from the forecaster's stream. */
  public void put(Forecast f) {
    Forecast old = forecasts.getIfPresent(f.getSeries());
    notePeriod(old, f);
    forecasts.put(f.getSeries(), f);
    version.incrementAndGet();
  }

  private void notePeriod(Forecast old, Forecast f) {
    if (old == null) {
      return;
    }
    long dt = f.getLast().getTimestampMs() - old.getLast().getTimestampMs();
    if (dt > 0) {
      periods.merge(f.getSeries(), dt, (a, b) -> (a * 3 + b) / 4);
    }
  }

  /** The data version of the snapshot {@link #snapshot()} returns now. */
  public long snapshotVersion() {
    return encoded().version();
  }

  /** The current snapshot; see {@link #encoded()}. */
  public ClusterSnapshot snapshot() {
    return encoded().snapshot();
  }

  /**
   * The current snapshot with its wire form. With a background rebuild running ({@link
   * #rebuildEvery}) this only reads the latest prebuilt one, so no reader ever pays for a build or
   * its serialization; otherwise it rebuilds on the spot if something changed or the last one has
   * aged.
   */
  public EncodedSnapshot encoded() {
    EncodedSnapshot prebuilt = built;
    if (background && prebuilt != null) {
      return prebuilt;
    }
    return rebuildIfDue();
  }

  /**
   * Keeps the snapshot rebuilt on {@code scheduler}: within {@code periodMs} of a change, and at
   * least every {@code rebuildMs} so ages and stale marks stay current.
   */
  public void rebuildEvery(ScheduledExecutorService scheduler, long periodMs) {
    rebuildIfDue();
    background = true;
    scheduler.scheduleWithFixedDelay(this::rebuildIfDue, periodMs, periodMs, TimeUnit.MILLISECONDS);
  }

  private synchronized EncodedSnapshot rebuildIfDue() {
    long now = clockMs.getAsLong();
    long v = version.get();
    EncodedSnapshot s = built;
    if (s != null && s.version() == v && now - s.snapshot().getTakenMs() < settings.rebuildMs()) {
      return s;
    }
    s = new EncodedSnapshot(build(now), v);
    built = s;
    return s;
  }

  private ClusterSnapshot build(long now) {
    SeriesKeys k = keys;
    List<String> hs = k.hosts;
    int n = hs.size();
    ClusterSnapshot.Builder b = ClusterSnapshot.newBuilder().setCluster(cluster).setTakenMs(now);
    for (int i = 0; i < n; i++) {
      HostSnapshot.Builder hb = HostSnapshot.newBuilder().setHost(hs.get(i));
      view(k.cpu[i], now).ifPresent(hb::setCpuAvailability);
      view(k.memory[i], now).ifPresent(hb::setMemoryFree);
      // Interference rates are per pair on the wire but per host in the model: use the host's
      // mean over its peers.
      mean(k.interferenceSend, i, n, now).ifPresent(hb::setInterferenceSend);
      mean(k.interferenceRecv, i, n, now).ifPresent(hb::setInterferenceRecv);
      b.addHosts(hb);
    }
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (i == j) {
          continue;
        }
        int p = i * n + j;
        Optional<ResourceForecast> bw = view(k.bandwidth[p], now);
        Optional<ResourceForecast> lat = view(k.latency[p], now);
        Optional<ResourceForecast> conn = view(k.connect[p], now);
        if (bw.isEmpty() || lat.isEmpty()) {
          missing.add(k.pairs[p]);
        }
        if (bw.isPresent() || lat.isPresent() || conn.isPresent()) {
          PairSnapshot.Builder pb = PairSnapshot.newBuilder().setSrc(hs.get(i)).setDst(hs.get(j));
          bw.ifPresent(pb::setBandwidth);
          lat.ifPresent(pb::setLatency);
          conn.ifPresent(pb::setConnect);
          b.addPairs(pb);
        }
      }
    }
    return b.addAllMissingPairs(missing).build();
  }

  /**
   * Series names of every host and ordered pair, made once per host list rather than concatenated
   * again on every build. Pair arrays are indexed {@code src * n + dst}.
   */
  private static final class SeriesKeys {
    final List<String> hosts;
    final String[] cpu;
    final String[] memory;
    final String[] pairs;
    final String[] bandwidth;
    final String[] latency;
    final String[] connect;
    final String[] interferenceSend;
    final String[] interferenceRecv;

    SeriesKeys(List<String> hosts) {
      int n = hosts.size();
      this.hosts = hosts;
      cpu = new String[n];
      memory = new String[n];
      pairs = new String[n * n];
      bandwidth = new String[n * n];
      latency = new String[n * n];
      connect = new String[n * n];
      interferenceSend = new String[n * n];
      interferenceRecv = new String[n * n];
      for (int i = 0; i < n; i++) {
        cpu[i] = "cpu.availability:" + hosts.get(i);
        memory[i] = "memory.free:" + hosts.get(i);
        for (int j = 0; j < n; j++) {
          int p = i * n + j;
          String pair = hosts.get(i) + "->" + hosts.get(j);
          pairs[p] = pair;
          bandwidth[p] = "tcp.bandwidth:" + pair;
          latency[p] = "tcp.latency:" + pair;
          connect[p] = "tcp.connect:" + pair;
          interferenceSend[p] = "interference.send:" + pair;
          interferenceRecv[p] = "interference.recv:" + pair;
        }
      }
    }
  }

  /** Mean over host {@code i}'s peers of the pair series {@code names[i * n + peer]}. */
  private Optional<ResourceForecast> mean(String[] names, int i, int n, long now) {
    double sum = 0;
    double mse = 0;
    double mae = 0;
    long age = 0;
    boolean stale = false;
    int count = 0;
    for (int peer = 0; peer < n; peer++) {
      Optional<ResourceForecast> r = view(names[i * n + peer], now);
      if (r.isPresent()) {
        sum += r.get().getValue();
        mse += r.get().getMse();
        mae += r.get().getMae();
        age = Math.max(age, r.get().getAgeMs());
        stale |= r.get().getStale();
        count++;
      }
    }
    if (count == 0) {
      return Optional.empty();
    }
    return Optional.of(
        ResourceForecast.newBuilder()
            .setValue(sum / count)
            .setMse(mse / count)
            .setMae(mae / count)
            .setMethod("mean over " + count + " peers")
            .setAgeMs(age)
            .setStale(stale)
            .build());
  }

  private Optional<ResourceForecast> view(String series, long now) {
    Forecast f = forecasts.getIfPresent(series);
    if (f == null) {
      return Optional.empty();
    }
    long age = Math.max(0, now - f.getLast().getTimestampMs());
    return Optional.of(
        ResourceForecast.newBuilder()
            .setValue(f.getValue())
            .setMse(f.getMse())
            .setMae(f.getMae())
            .setMethod(f.getMethod())
            .setAgeMs(age)
            .setStale(age > staleAfter(series))
            .build());
  }

  /** How old a series' last measurement may be before its value is stale. */
  long staleAfter(String series) {
    Long period = periods.get(series);
    if (period == null) {
      return settings.defaultStaleMs();
    }
    return Math.max(settings.minStaleMs(), (long) (settings.staleFactor() * period));
  }

  /** Series names this cache wants for its hosts, as forecaster patterns. */
  public List<String> patterns() {
    List<String> out = new ArrayList<>();
    for (String h : keys.hosts) {
      out.add("*:" + h);
      out.add("*:" + h + "->*");
    }
    return out;
  }
}
