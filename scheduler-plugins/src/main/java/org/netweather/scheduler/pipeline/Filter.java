package org.netweather.scheduler.pipeline;

import java.util.List;

/**
 * A filter of the chain: its tuning statistics, where it is pinned if it is, and an optional cap on
 * its copy count (BFC's pseudocode cap; the power cap always applies).
 *
 * @param pinned hosts of a pinned filter, one copy on each; empty when the scheduler decides
 * @param maxCopies the count cap, 0 for none
 */
public record Filter(FilterStats stats, List<String> pinned, int maxCopies) {
  public Filter {
    pinned = List.copyOf(pinned);
    if (maxCopies < 0) {
      throw new IllegalArgumentException("filter " + stats.name() + ": maxCopies < 0");
    }
  }

  public String name() {
    return stats.name();
  }

  public boolean isPinned() {
    return !pinned.isEmpty();
  }
}
