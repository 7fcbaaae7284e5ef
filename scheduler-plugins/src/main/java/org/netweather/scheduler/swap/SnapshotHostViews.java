package org.netweather.scheduler.swap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToDoubleBiFunction;
import org.netweather.scheduler.frame.Estimate;
import org.netweather.scheduler.frame.HostResources;
import org.netweather.scheduler.frame.ResourceSnapshot;

/**
 * Builds the policies' {@link HostView}s from a NetWeather cluster snapshot (a proxy's forecasts,
 * live or saved), so a manager runs on real forecasts instead of its own load readings.
 *
 * <pre>
 * docs/schedulers/swapping.md, "Our policy" step 1, on NetWeather's cpu.availability forecast a
 * (what a NEW process
 * would get, 1/(1 + q) for a run queue q):
 *   q        = 1/a − 1                      reported as the host's load average
 *   forecast = speed · SelfLoad.availability(q, active)
 *            = speed · 1/(1 + q − 1) on an active host (our own process is one of the q),
 *              speed · a on an idle one
 *   error    = half the spread of that forecast over a ± MAE (the MAE pushed through the
 *              correction, which steepens it on busy active hosts)
 * speed is the host parameter "speed" (default 1); τ, which a snapshot does not carry, is a
 * fixed persistence. A host without a current forecast (missing or stale) is never chosen:
 * forecast 0 when idle, and when active the unloaded speed, so it is not swapped out blind.
 * </pre>
 */
public final class SnapshotHostViews {
  /** Availability floor, so a host reported at 0 gives a finite run queue. */
  static final double MIN_AVAILABILITY = 0.01;

  private SnapshotHostViews() {}

  /** The views of {@code hosts}, in that order; {@code active} tells which run a rank. */
  public static List<HostView> views(
      ResourceSnapshot snapshot, List<String> hosts, Predicate<String> active, double persistence) {
    List<HostView> out = new ArrayList<>();
    for (String h : hosts) {
      int i = snapshot.indexOf(h);
      if (i < 0) {
        throw new IllegalArgumentException(
            "host '" + h + "' is not in the snapshot of cluster '" + snapshot.cluster() + "'");
      }
      out.add(view(snapshot.host(i), active.test(h), persistence));
    }
    return out;
  }

  static HostView view(HostResources host, boolean active, double persistence) {
    double speed = host.parameter("speed", 1);
    Estimate cpu = host.cpuAvailability();
    if (!cpu.usable()) {
      return new HostView(host.name(), active, Double.NaN, active ? speed : 0, 0, persistence);
    }
    double a = clamp(cpu.value());
    double e = Double.isNaN(cpu.error()) ? 0 : cpu.error();
    double forecast = speed * corrected(a, active);
    double error = speed * (corrected(clamp(a + e), active) - corrected(clamp(a - e), active)) / 2;
    return new HostView(host.name(), active, 1 / a - 1, forecast, error, persistence);
  }

  private static double corrected(double availability, boolean active) {
    return SelfLoad.availability(1 / availability - 1, active);
  }

  private static double clamp(double a) {
    return Math.max(MIN_AVAILABILITY, Math.min(1, a));
  }

  /**
   * Forecast bytes/s from one host to another, for swap costs; {@code fallback} where the snapshot
   * has no current bandwidth (0 forbids swaps over unmeasured paths).
   */
  public static ToDoubleBiFunction<String, String> bandwidth(
      ResourceSnapshot snapshot, double fallback) {
    return (src, dst) -> {
      int i = snapshot.indexOf(src);
      int j = snapshot.indexOf(dst);
      double bw = i < 0 || j < 0 || i == j ? Double.NaN : snapshot.bandwidth(i, j);
      return Double.isNaN(bw) ? fallback : bw;
    };
  }
}
