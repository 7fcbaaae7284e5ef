package org.netweather.scheduler.frame;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.PairSnapshot;
import org.netweather.api.v1.ResourceForecast;

/**
 * Turns the proxy's {@link ClusterSnapshot} into a {@link ResourceSnapshot}: converts units and
 * rejects values no forecast could produce, naming the field.
 *
 * <p>Rejected: empty or repeated host names; pairs naming unknown hosts, a host twice, or the same
 * pair twice; non-finite values; CPU availability outside [0, 1]; negative memory, bandwidth,
 * latency or errors; non-finite parameters. Missing forecasts are not errors: each plugin decides
 * what it can do without them.
 */
public final class SnapshotConverter {
  /** Bytes per second in one Mbit/s. */
  public static final double BYTES_PER_MBIT = 125_000;

  /** Bytes in one MiB. */
  public static final double BYTES_PER_MIB = 1 << 20;

  private SnapshotConverter() {}

  public static ResourceSnapshot toModel(ClusterSnapshot proto) {
    ResourceSnapshot.Builder b =
        ResourceSnapshot.builder(proto.getCluster())
            .takenMs(proto.getTakenMs())
            .parameters(parameters("parameters", proto.getParametersMap()));
    for (int i = 0; i < proto.getHostsCount(); i++) {
      HostSnapshot h = proto.getHosts(i);
      String at = "hosts[" + i + "]";
      if (h.getHost().isEmpty()) {
        throw new IllegalArgumentException(at + ".host: empty host name");
      }
      Estimate cpu =
          h.hasCpuAvailability()
              ? estimate(at + ".cpuAvailability", h.getCpuAvailability(), 1)
              : Estimate.UNKNOWN;
      if (cpu.value() > 1) {
        throw new IllegalArgumentException(
            at + ".cpuAvailability.value: " + cpu.value() + " is not a fraction of one CPU (0..1)");
      }
      try {
        b.host(
            new HostResources(
                h.getHost(),
                cpu,
                h.hasMemoryFree()
                    ? estimate(at + ".memoryFree", h.getMemoryFree(), BYTES_PER_MIB)
                    : Estimate.UNKNOWN,
                h.hasInterferenceSend()
                    ? estimate(at + ".interferenceSend", h.getInterferenceSend(), 1)
                    : Estimate.UNKNOWN,
                h.hasInterferenceRecv()
                    ? estimate(at + ".interferenceRecv", h.getInterferenceRecv(), 1)
                    : Estimate.UNKNOWN,
                parameters(at + ".parameters", h.getParametersMap())));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(at + ".host: " + e.getMessage());
      }
    }
    Set<String> names = new HashSet<>();
    proto.getHostsList().forEach(h -> names.add(h.getHost()));
    for (int i = 0; i < proto.getPairsCount(); i++) {
      PairSnapshot p = proto.getPairs(i);
      String at = "pairs[" + i + "]";
      for (String end : new String[] {p.getSrc(), p.getDst()}) {
        if (!names.contains(end)) {
          throw new IllegalArgumentException(
              at + ": unknown host '" + end + "' (every pair must join two listed hosts)");
        }
      }
      if (p.getSrc().equals(p.getDst())) {
        throw new IllegalArgumentException(
            at + ": " + p.getSrc() + "->" + p.getDst() + " joins a host to itself");
      }
      if (b.hasLink(p.getSrc(), p.getDst())) {
        throw new IllegalArgumentException(
            at + ": pair " + p.getSrc() + "->" + p.getDst() + " appears twice");
      }
      b.link(
          p.getSrc(),
          p.getDst(),
          p.hasBandwidth()
              ? estimate(at + ".bandwidth", p.getBandwidth(), BYTES_PER_MBIT)
              : Estimate.UNKNOWN,
          p.hasLatency() ? estimate(at + ".latency", p.getLatency(), 1e-3) : Estimate.UNKNOWN);
    }
    return b.build();
  }

  private static Estimate estimate(String at, ResourceForecast f, double scale) {
    check(at + ".value", f.getValue());
    check(at + ".mae", f.getMae());
    return new Estimate(f.getValue() * scale, f.getMae() * scale, f.getStale());
  }

  private static void check(String at, double v) {
    if (!Double.isFinite(v) || v < 0) {
      throw new IllegalArgumentException(at + ": " + v + " is not a finite non-negative number");
    }
  }

  private static Map<String, Double> parameters(String at, Map<String, Double> values) {
    for (Map.Entry<String, Double> e : values.entrySet()) {
      if (!Double.isFinite(e.getValue())) {
        throw new IllegalArgumentException(
            at + "." + e.getKey() + ": " + e.getValue() + " is not a finite number");
      }
    }
    return values;
  }
}
