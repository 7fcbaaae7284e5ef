package org.netweather.client;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.netweather.api.v1.Registration;
import org.netweather.model.SeriesName;
import org.netweather.model.shard.Rendezvous;
import org.netweather.model.shard.Shards;

/**
 * Which forecaster serves a series: on a site whose forecasters share the shards, the rendezvous
 * owner of the series' shard among the forecasters the nameserver lists with {@code
 * sharding=rendezvous}; otherwise the first forecaster listed, which serves everything. The list is
 * kept for a short while ({@code refresh}) and fetched again when it is older, when a forecaster
 * says it does not serve a shard ({@link #refresh()}), or after a forecaster could not be reached
 * ({@link #invalidate()}). See {@code docs/routing.md}.
 *
 * <p>The owner computation is {@link Rendezvous} over the forecasters' registration names, the same
 * one the forecasters make over their registry group, so router and forecasters agree whenever
 * their member lists do; a forecaster that disagrees answers SHARD_NOT_OWNED and the caller asks
 * again ({@link View#retryTarget}).
 *
 * <p>Thread-safe.
 */
public final class ShardRouter {
  /** The registration attribute of a forecaster that shares the site's shards. */
  public static final String SHARDING = "sharding";

  /** Its value: owners by rendezvous hashing over the forecasters' registration names. */
  public static final String RENDEZVOUS = "rendezvous";

  /** How long a forecaster list is used before it is fetched again. */
  public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(5);

  // A burst of SHARD_NOT_OWNED answers (a handoff seen by many callers) costs one search.
  private static final long MIN_FORCED_NANOS = Duration.ofMillis(200).toNanos();

  private final Supplier<List<Registration>> forecasters;
  private final long refreshNanos;
  private final LongSupplier nanoTime;
  private final String nameserver;
  private volatile View view;
  private volatile long fetchedAt;

  /**
   * @param forecasters lists the registered forecasters ({@code Search (kind=forecaster)})
   * @param refresh how long a list is used
   * @param nanoTime the clock that ages it ({@code System::nanoTime}; a fake one in tests)
   * @param nameserver names the nameserver in errors
   */
  public ShardRouter(
      Supplier<List<Registration>> forecasters,
      Duration refresh,
      LongSupplier nanoTime,
      String nameserver) {
    if (refresh.isNegative()) {
      throw new IllegalArgumentException(
          "forecaster list refresh must not be negative: " + refresh);
    }
    this.forecasters = Objects.requireNonNull(forecasters);
    this.refreshNanos = refresh.toNanos();
    this.nanoTime = Objects.requireNonNull(nanoTime);
    this.nameserver = nameserver;
  }

  /** The forecaster list, fetched again if it is older than the refresh or was empty. */
  public View current() {
    View v = view;
    if (v == null || v.isEmpty() || nanoTime.getAsLong() - fetchedAt >= refreshNanos) {
      return fetch(false);
    }
    return v;
  }

  /** The forecaster list fetched now (unless it was fetched a moment ago). */
  public View refresh() {
    return fetch(true);
  }

  /** Makes the next {@link #current()} fetch the list again. */
  public void invalidate() {
    fetchedAt = nanoTime.getAsLong() - refreshNanos;
  }

  private synchronized View fetch(boolean forced) {
    long now = nanoTime.getAsLong();
    View v = view;
    if (v != null && !v.isEmpty()) {
      long age = now - fetchedAt;
      if (forced ? age < MIN_FORCED_NANOS : age < refreshNanos) {
        return v; // another caller fetched it meanwhile
      }
    }
    List<Registration> found;
    try {
      found = forecasters.get();
    } catch (StatusRuntimeException e) {
      if (v == null || v.isEmpty()) {
        throw e;
      }
      fetchedAt = now; // keep routing by the last list; ask again after the refresh
      return v;
    }
    View fresh = new View(found, nameserver);
    view = fresh;
    fetchedAt = now;
    return fresh;
  }

  /**
   * The source host of a series name or pattern when it names one literally ({@code
   * cpu.availability:alpha}, {@code *:alpha->*}): every series it can match is then in that host's
   * shard. Empty for patterns over several sources ({@code cpu.availability:*}) and for text that
   * is not a series name.
   */
  public static Optional<String> sourceHost(String seriesOrPattern) {
    int colon = seriesOrPattern.indexOf(':');
    if (colon < 0 || seriesOrPattern.indexOf(':', colon + 1) >= 0) {
      return Optional.empty(); // a series name holds exactly one ':'
    }
    String rest = seriesOrPattern.substring(colon + 1);
    int arrow = rest.indexOf("->");
    String source = arrow < 0 ? rest : rest.substring(0, arrow);
    if (source.indexOf('*') >= 0 || SeriesName.nameProblem("host", source) != null) {
      return Optional.empty();
    }
    return Optional.of(source);
  }

  /** The shard of a series name or of a pattern with a literal source host; -1 otherwise. */
  public static int shardOf(String seriesOrPattern) {
    return sourceHost(seriesOrPattern).map(Shards::ofHost).orElse(-1);
  }

  /** One forecaster list, and the owners it implies. Immutable. */
  public static final class View {
    private final Map<String, String> sharded = new LinkedHashMap<>(); // name -> address
    private final String first;
    private final String nameserver;

    View(List<Registration> forecasters, String nameserver) {
      this.nameserver = nameserver;
      for (Registration r : forecasters) {
        if (RENDEZVOUS.equals(r.getAttributesOrDefault(SHARDING, ""))) {
          sharded.put(r.getName(), r.getAddress());
        }
      }
      this.first = forecasters.isEmpty() ? null : forecasters.get(0).getAddress();
    }

    /** Whether forecasters share the shards (at least one registered with sharding=rendezvous). */
    public boolean sharded() {
      return !sharded.isEmpty();
    }

    public boolean isEmpty() {
      return first == null;
    }

    /** What routing depends on: two views with equal signatures route every series alike. */
    List<String> signature() {
      List<String> out = new ArrayList<>();
      out.add(String.valueOf(first));
      sharded.forEach((name, address) -> out.add(name + "=" + address));
      return out;
    }

    /** Registration names of the forecasters sharing the shards; empty if none do. */
    public Set<String> members() {
      return sharded.keySet();
    }

    /** Every forecaster a pattern over several hosts goes to: the sharded ones, or the first. */
    public List<String> addresses() {
      return sharded() ? List.copyOf(sharded.values()) : List.of(any());
    }

    /**
     * A forecaster for calls any of them answers (ForecastPoints, a malformed name): the first
     * listed.
     *
     * @throws StatusRuntimeException UNAVAILABLE when no forecaster is registered
     */
    public String any() {
      if (first == null) {
        throw Status.UNAVAILABLE
            .withDescription("no forecaster is registered with " + nameserver)
            .asRuntimeException();
      }
      return sharded() ? sharded.values().iterator().next() : first;
    }

    /** The address of the forecaster that owns {@code shard}. */
    public String ownerOf(int shard) {
      if (!sharded()) {
        return any();
      }
      return sharded.get(Rendezvous.owner(shard, sharded.keySet()).orElseThrow());
    }

    /**
     * Where a series name, or a pattern with a literal source host, is asked: its shard's owner;
     * null for a pattern over several hosts, which every forecaster is asked. Malformed text goes
     * to {@link #any()}, whose answer names the problem.
     */
    public String route(String seriesOrPattern) {
      if (!sharded()) {
        return any();
      }
      int shard = shardOf(seriesOrPattern);
      if (shard >= 0) {
        return ownerOf(shard);
      }
      return seriesOrPattern.indexOf('*') >= 0 ? null : any();
    }

    /** Whether {@code address} is that of a listed forecaster. */
    public boolean lists(String address) {
      return sharded() ? sharded.containsValue(address) : address.equals(first);
    }

    /** The address registered for a forecaster name, or null. */
    public String addressOf(String name) {
      return sharded.get(name);
    }

    /**
     * Where to ask again after the forecaster at {@code asked} said it does not serve {@code
     * shard}: the hinted forecaster if the answer names one; else the computed owner if that is
     * another; else the next-ranked forecaster, which during a handoff to a newly joined owner is
     * the previous owner, still serving the shard until the new one has it warm. Null if there is
     * nowhere else to ask.
     */
    public String retryTarget(int shard, ShardNotOwned hint, String asked) {
      if (hint != null) {
        // A hint may name a forecaster that died and is no longer listed: not followed.
        if (!hint.ownerAddress().isEmpty()
            && !hint.ownerAddress().equals(asked)
            && lists(hint.ownerAddress())) {
          return hint.ownerAddress();
        }
        String named = hint.owner().isEmpty() ? null : addressOf(hint.owner());
        if (named != null && !named.equals(asked)) {
          return named;
        }
      }
      if (!sharded() || shard < 0) {
        return null;
      }
      for (String name : Rendezvous.ranked(shard, sharded.keySet())) {
        String address = sharded.get(name);
        if (!address.equals(asked)) {
          return address;
        }
      }
      return null;
    }
  }
}
