package org.netweather.scheduler.pipeline;

import java.util.Set;

/**
 * A network segment that all streams between two host sets share, such as a WAN between two
 * clusters or one host's access link. NWS measures pairs one at a time, so it cannot see that four
 * streams from ROGUE to DC share one 6 Mbit/s link; the pipeline input says so.
 *
 * @param capacity bytes/s
 * @param from hosts on the sending side
 * @param to hosts on the receiving side
 */
public record SharedSegment(String name, double capacity, Set<String> from, Set<String> to) {
  public SharedSegment {
    from = Set.copyOf(from);
    to = Set.copyOf(to);
    if (!(capacity >= 0)) {
      throw new IllegalArgumentException("segment " + name + ": capacity must be >= 0");
    }
  }

  /** Whether a stream from {@code src} to {@code dst} (distinct hosts) crosses this segment. */
  public boolean carries(String src, String dst) {
    return !src.equals(dst) && from.contains(src) && to.contains(dst);
  }
}
