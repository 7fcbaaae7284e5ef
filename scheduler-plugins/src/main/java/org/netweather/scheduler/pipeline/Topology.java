package org.netweather.scheduler.pipeline;

import java.util.ArrayList;
import java.util.List;
import org.netweather.scheduler.frame.ResourceSnapshot;

/**
 * The platform a pipeline is placed on: host speeds, pair bandwidths and one-way latencies from a
 * snapshot, and the shared segments each pair crosses.
 *
 * <p>Host speed = the host parameter {@code power} (relative to a tuning-run host, default 1) × NWS
 * CPU availability. A pair without a current bandwidth forecast cannot carry a stream (bandwidth
 * 0); a host talks to itself for free.
 */
public final class Topology {
  private final ResourceSnapshot snapshot;
  private final List<SharedSegment> segments;
  private final int[][][] crossing;

  public Topology(ResourceSnapshot snapshot, List<SharedSegment> segments) {
    this.snapshot = snapshot;
    this.segments = List.copyOf(segments);
    int n = snapshot.size();
    crossing = new int[n][n][];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        List<Integer> on = new ArrayList<>();
        for (int s = 0; s < segments.size(); s++) {
          if (segments.get(s).carries(name(i), name(j))) {
            on.add(s);
          }
        }
        crossing[i][j] = on.stream().mapToInt(Integer::intValue).toArray();
      }
    }
  }

  public int size() {
    return snapshot.size();
  }

  public String name(int h) {
    return snapshot.host(h).name();
  }

  public int indexOf(String host) {
    return snapshot.indexOf(host);
  }

  /** Relative compute speed: power × availability. */
  public double speed(int h) {
    double a = snapshot.host(h).cpuAvailability().value();
    return snapshot.host(h).parameter("power", 1.0) * (Double.isNaN(a) ? 0 : a);
  }

  public double availability(int h) {
    double a = snapshot.host(h).cpuAvailability().value();
    return Double.isNaN(a) ? 0 : a;
  }

  /** Point-to-point bandwidth in bytes/s; infinite on one host, 0 when unknown. */
  public double bandwidth(int src, int dst) {
    if (src == dst) {
      return Double.POSITIVE_INFINITY;
    }
    double b = snapshot.bandwidth(src, dst);
    return Double.isNaN(b) ? 0 : b;
  }

  /** One-way latency in seconds (half the NWS round trip), 0 when unknown or on one host. */
  public double latency(int src, int dst) {
    if (src == dst) {
      return 0;
    }
    double l = snapshot.latency(src, dst);
    return Double.isNaN(l) ? 0 : l / 2;
  }

  public List<SharedSegment> segments() {
    return segments;
  }

  /** Indices of the segments a stream src→dst crosses. */
  public int[] segmentsOf(int src, int dst) {
    return crossing[src][dst];
  }
}
