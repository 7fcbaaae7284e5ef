package org.netweather.client;

import io.grpc.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.netweather.api.v1.SeriesAssignment;

/**
 * Which memory-host stores each series, remembered after the nameserver's first answer: an
 * assignment only moves when its memory-host's lease expires, and a caller that then fails asks
 * again with {@code refresh}.
 */
final class SeriesLocator {
  private final Function<List<String>, List<SeriesAssignment>> assign;
  private final Function<String, List<SeriesAssignment>> directory;
  private final Map<String, String> addressOf = new ConcurrentHashMap<>();

  SeriesLocator(
      Function<List<String>, List<SeriesAssignment>> assign,
      Function<String, List<SeriesAssignment>> directory) {
    this.assign = assign;
    this.directory = directory;
  }

  /** The address of a series the nameserver already knows; NOT_FOUND otherwise. */
  String existing(String series) {
    String cached = addressOf.get(series);
    if (cached != null) {
      return cached;
    }
    for (SeriesAssignment a : directory.apply(series)) {
      if (a.getSeries().equals(series) && !a.getAddress().isEmpty()) {
        addressOf.put(series, a.getAddress());
        return a.getAddress();
      }
    }
    throw Status.NOT_FOUND
        .withDescription("series '" + series + "' is unknown to the nameserver")
        .asRuntimeException();
  }

  /** Forgets every remembered address (after series were deleted: they may be placed anew). */
  void clear() {
    addressOf.clear();
  }

  /** The address of each series, assigning a memory-host to new ones. */
  Map<String, String> assigned(List<String> series, boolean refresh) {
    Map<String, String> out = new LinkedHashMap<>();
    List<String> ask = new ArrayList<>();
    for (String s : series) {
      String a = refresh ? null : addressOf.get(s);
      if (a == null) {
        ask.add(s);
      } else {
        out.put(s, a);
      }
    }
    if (!ask.isEmpty()) {
      for (SeriesAssignment a : assign.apply(ask)) {
        addressOf.put(a.getSeries(), a.getAddress());
        out.put(a.getSeries(), a.getAddress());
      }
    }
    return out;
  }
}
