package org.netweather.scheduler.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * A schedule: the copies of each filter with their hosts, timing estimates and the share of the
 * filter's cycles each copy is expected to process, and the estimated execution time.
 *
 * @param copies per filter, in chain order
 * @param stageRates per filter, the predicted input rate in bytes/s from its producers (the
 *     source's entry is its output rate)
 * @param underProvisioned filters BFC could not balance (free hosts ran out first)
 */
public record Placement(
    String algorithm,
    List<List<Copy>> copies,
    double estimatedSeconds,
    double[] stageRates,
    List<String> underProvisioned) {
  public Placement {
    copies = copies.stream().map(List::copyOf).toList();
    underProvisioned = List.copyOf(underProvisioned);
  }

  /** One filter copy: host index and name, EST/EFT/EWT (s) and its share of the cycles. */
  public record Copy(
      int filter, int host, String hostName, double est, double eft, double ewt, double share) {}

  /** Host names of filter {@code i}'s copies. */
  public List<String> hosts(int i) {
    List<String> out = new ArrayList<>();
    copies.get(i).forEach(c -> out.add(c.hostName()));
    return out;
  }
}
