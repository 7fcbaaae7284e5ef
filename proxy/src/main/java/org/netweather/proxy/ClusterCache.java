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
 * <p>Forecasts arrive from the forecaster's stream ({@link #put}). Entries live in a Caffeine
 * cache with a hard expiry by measurement age, so a series that stops being measured
 * eventually drops out and shows as missing, and with refresh-after-write, so an entry the
 * stream has not renewed for a while is fetched again on its own. A value is <em>stale</em> when its last measurement is
 * older than a few of its series' measurement periods (learnt from successive forecasts); a
 * stale value is served marked stale, never as fresh.
 *
 * <p>Snapshots are rebuilt only when something changed or the last one has aged past
 * {@code rebuildMs}, so a burst of readers shares one build; in the daemon the rebuild runs in
 * the background and readers only ever take a prebuilt snapshot.
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
  private volatile List<String> hosts = List.of();
  private volatile ClusterSnapshot built;
  private volatile long builtVersion = -1;
  private volatile boolean background;

  /** Staleness and cache timing. */
  public record Settings(double staleFactor, long minStaleMs, long defaultStaleMs,
      Duration refreshAfter, Duration expireAfter, long rebuildMs) {
    public static Settings defaults() {
      return new Settings(3.0, 10_000, 300_000, Duration.ofSeconds(30), Duration.ofHours(1),
          1_000);
    }
  }

  /**
   * @param fetch reads one forecast from the forecaster, for refreshes; returns null if the
   *     forecaster does not know the series
   * @param ticker Caffeine's clock (a fake one in tests)
   * @param clockMs wall clock for ages, epoch milliseconds
   */
  public ClusterCache(String cluster, Settings settings, Function<String, Forecast> fetch,
      Executor refreshExecutor, Ticker ticker, LongSupplier clockMs) {
    this.cluster = cluster;
    this.settings = settings;
    this.clockMs = clockMs;
    this.forecasts = Caffeine.newBuilder()
        .ticker(ticker)
        .executor(refreshExecutor)
        .refreshAfterWrite(settings.refreshAfter())
        .expireAfter(new MeasurementAgeExpiry())
        .build(new CacheLoader<String, Forecast>() {
          @Override
          public Forecast load(String series) {
            return fetch.apply(series);
          }

          @Override
          public Forecast reload(String series, Forecast old) {
            Forecast f = fetch.apply(series);
            if (f != null) {
              notePeriod(old, f);
              version.incrementAndGet();
            }
            return f == null ? old : f;
          }
        });
  }

  /**
   * Expires an entry once its last measurement is {@code expireAfter} old, counted from the
   * measurement rather than the cache write, so a refresh that finds nothing new cannot keep a
   * dead series alive.
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
    if (!newHosts.equals(hosts)) {
      hosts = List.copyOf(newHosts);
      version.incrementAndGet();
    }
  }

  public List<String> hosts() {
    return hosts;
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
    snapshot();
    return builtVersion;
  }

  /**
   * The current snapshot. With a background rebuild running ({@link #rebuildEvery}) this only
   * reads the latest prebuilt one, so no reader ever pays for a build; otherwise it rebuilds on
   * the spot if something changed or the last one has aged.
   */
  public ClusterSnapshot snapshot() {
    ClusterSnapshot prebuilt = built;
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
    scheduler.scheduleWithFixedDelay(this::rebuildIfDue, periodMs, periodMs,
        TimeUnit.MILLISECONDS);
  }

  private synchronized ClusterSnapshot rebuildIfDue() {
    long now = clockMs.getAsLong();
    long v = version.get();
    ClusterSnapshot s = built;
    if (s != null && builtVersion == v && now - s.getTakenMs() < settings.rebuildMs()) {
      return s;
    }
    s = build(now);
    built = s;
    builtVersion = v;
    return s;
  }

  private ClusterSnapshot build(long now) {
    List<String> hs = hosts;
    ClusterSnapshot.Builder b = ClusterSnapshot.newBuilder().setCluster(cluster).setTakenMs(now);
    for (String h : hs) {
      HostSnapshot.Builder hb = HostSnapshot.newBuilder().setHost(h);
      view("cpu.availability:" + h, now).ifPresent(hb::setCpuAvailability);
      view("memory.free:" + h, now).ifPresent(hb::setMemoryFree);
      b.addHosts(hb);
    }
    List<String> missing = new ArrayList<>();
    for (String src : hs) {
      for (String dst : hs) {
        if (src.equals(dst)) {
          continue;
        }
        String pair = src + "->" + dst;
        Optional<ResourceForecast> bw = view("tcp.bandwidth:" + pair, now);
        Optional<ResourceForecast> lat = view("tcp.latency:" + pair, now);
        Optional<ResourceForecast> conn = view("tcp.connect:" + pair, now);
        if (bw.isEmpty() || lat.isEmpty()) {
          missing.add(pair);
        }
        if (bw.isPresent() || lat.isPresent() || conn.isPresent()) {
          PairSnapshot.Builder pb = PairSnapshot.newBuilder().setSrc(src).setDst(dst);
          bw.ifPresent(pb::setBandwidth);
          lat.ifPresent(pb::setLatency);
          conn.ifPresent(pb::setConnect);
          b.addPairs(pb);
        }
      }
    }
    // Interference rates are per pair on the wire but per host in the model: use the host's
    // mean over its peers.
    for (int i = 0; i < hs.size(); i++) {
      HostSnapshot.Builder hb = b.getHostsBuilder(i);
      mean("interference.send:" + hs.get(i) + "->", hs, now).ifPresent(
          hb::setInterferenceSend);
      mean("interference.recv:" + hs.get(i) + "->", hs, now).ifPresent(
          hb::setInterferenceRecv);
    }
    return b.addAllMissingPairs(missing).build();
  }

  private Optional<ResourceForecast> mean(String prefix, List<String> hs, long now) {
    double sum = 0;
    double mse = 0;
    double mae = 0;
    long age = 0;
    boolean stale = false;
    int n = 0;
    for (String peer : hs) {
      Optional<ResourceForecast> r = view(prefix + peer, now);
      if (r.isPresent()) {
        sum += r.get().getValue();
        mse += r.get().getMse();
        mae += r.get().getMae();
        age = Math.max(age, r.get().getAgeMs());
        stale |= r.get().getStale();
        n++;
      }
    }
    if (n == 0) {
      return Optional.empty();
    }
    return Optional.of(ResourceForecast.newBuilder().setValue(sum / n).setMse(mse / n)
        .setMae(mae / n).setMethod("mean over " + n + " peers").setAgeMs(age).setStale(stale)
        .build());
  }

  private Optional<ResourceForecast> view(String series, long now) {
    Forecast f = forecasts.getIfPresent(series);
    if (f == null) {
      return Optional.empty();
    }
    long age = Math.max(0, now - f.getLast().getTimestampMs());
    return Optional.of(ResourceForecast.newBuilder()
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
    for (String h : hosts) {
      out.add("*:" + h);
      out.add("*:" + h + "->*");
    }
    return out;
  }
}
