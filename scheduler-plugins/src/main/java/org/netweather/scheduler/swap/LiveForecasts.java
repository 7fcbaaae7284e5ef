package org.netweather.scheduler.swap;

import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.netweather.scheduler.frame.ResourceSnapshot;

/**
 * Epochs for a live {@link SwapManager} from a cluster's NetWeather forecasts: fetches a snapshot
 * (e.g. {@code NetWeatherClient.snapshot} from a proxy) at most once per refresh interval, and
 * builds the hosts with {@link SnapshotHostViews}. A failed fetch keeps the last snapshot; with
 * none yet, {@link #epoch} throws and the swap point should be skipped.
 *
 * <pre>{@code
 * LiveForecasts live = new LiveForecasts(
 *     () -> SnapshotConverter.toModel(client.snapshot("lab")), 10, 60, 1e7, clock);
 * group.run(iterations, period, it -> live.epoch(manager, it, iterations - it, w, c, bytes, 0.5));
 * }</pre>
 *
 * <p>Thread-safety: synchronized; one manager's swap points call it in turn.
 */
public final class LiveForecasts {
  private final Supplier<ResourceSnapshot> fetch;
  private final double refreshSeconds;
  private final double persistence;
  private final double fallbackBandwidth;
  private final DoubleSupplier clockSeconds;
  private ResourceSnapshot last;
  private double fetchedAt = Double.NEGATIVE_INFINITY;

  /**
   * @param persistence τ given to every host, seconds
   * @param fallbackBandwidth bytes/s assumed where the snapshot has none (0: no swap there)
   * @param clockSeconds monotonic seconds, for the refresh interval
   */
  public LiveForecasts(
      Supplier<ResourceSnapshot> fetch,
      double refreshSeconds,
      double persistence,
      double fallbackBandwidth,
      DoubleSupplier clockSeconds) {
    this.fetch = fetch;
    this.refreshSeconds = refreshSeconds;
    this.persistence = persistence;
    this.fallbackBandwidth = fallbackBandwidth;
    this.clockSeconds = clockSeconds;
  }

  /** The latest snapshot, fetched again when older than the refresh interval. */
  public synchronized ResourceSnapshot snapshot() {
    double now = clockSeconds.getAsDouble();
    if (last == null || now - fetchedAt >= refreshSeconds) {
      try {
        last = fetch.get();
        fetchedAt = now;
      } catch (RuntimeException e) {
        if (last == null) {
          throw new IllegalStateException("no forecasts yet: " + e.getMessage(), e);
        }
      }
    }
    return last;
  }

  /** The epoch of {@code manager}'s swap point at {@code now} (seconds since its start). */
  public SwapPolicy.Epoch epoch(
      SwapManager manager,
      double now,
      long remainingIterations,
      double work,
      double comm,
      double stateBytes,
      double fixedCost) {
    ResourceSnapshot s = snapshot();
    List<HostView> views =
        SnapshotHostViews.views(s, manager.hosts(), manager::isActive, persistence);
    return new SwapPolicy.Epoch(
        now,
        views,
        remainingIterations,
        work,
        comm,
        stateBytes,
        fixedCost,
        SnapshotHostViews.bandwidth(s, fallbackBandwidth),
        manager.cooldown());
  }
}
