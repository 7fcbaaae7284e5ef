package org.netweather.scheduler.pipeline;

import java.util.List;

/** A filter chain f_1 → … → f_n (source first) and the shared segments of its platform. */
public record Pipeline(List<Filter> filters, List<SharedSegment> segments) {
  public Pipeline {
    filters = List.copyOf(filters);
    segments = List.copyOf(segments);
    if (filters.isEmpty()) {
      throw new IllegalArgumentException("a pipeline needs at least one filter");
    }
    if (filters.get(0).stats().inBuffers() != 0 && !filters.get(0).isPinned()) {
      // A first filter that reads must be fed from somewhere; only a pinned reader is allowed.
      throw new IllegalArgumentException(
          "the first filter must be a source (no input) or " + "pinned");
    }
  }

  public int size() {
    return filters.size();
  }

  public Filter filter(int i) {
    return filters.get(i);
  }
}
