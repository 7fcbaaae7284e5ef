package org.netweather.memoryhost;

import java.io.IOException;
import java.util.List;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.Resolution;

/** Consolidated long-term history of one series (averages, minima and maxima per step). */
interface Archive extends AutoCloseable {
  /** Seconds of the last point taken; points at or before it are ignored. */
  long lastUpdateSeconds() throws IOException;

  /** Takes one point; ignored unless its second is after {@link #lastUpdateSeconds()}. */
  void update(long timestampMs, double value) throws IOException;

  /** Rows of a resolution in [fromMs, toMs], without empty steps. */
  List<ConsolidatedPoint> fetch(Resolution resolution, long fromMs, long toMs) throws IOException;

  /** Step of a resolution in seconds. */
  static long stepSeconds(Resolution r) {
    switch (r) {
      case RESOLUTION_MINUTE:
        return 60;
      case RESOLUTION_HOUR:
        return 3600;
      case RESOLUTION_DAY:
        return 86_400;
      default:
        throw new IllegalArgumentException("resolution " + r + " is not one of MINUTE, HOUR, DAY");
    }
  }

  @Override
  void close() throws IOException;

  /** Opens or creates archives. */
  interface Factory extends AutoCloseable {
    Archive open(String series, java.nio.file.Path dir) throws IOException;

    @Override
    void close() throws IOException;
  }
}
