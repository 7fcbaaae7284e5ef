package org.netweather.memoryhost.store;

import java.nio.ByteBuffer;
import org.netweather.model.SeriesName;

/**
 * What the store keeps in memory for one series: its id, a summary of its sealed chunks and the
 * head, the newest points not yet sealed into a chunk, Gorilla-encoded. A few hundred bytes per
 * series, whatever its history.
 *
 * <p>Thread-safety: the writer thread changes it while holding its monitor; readers take the
 * monitor too, except for the volatile summary fields.
 */
public final class SeriesState {
  static final int RECORD_BYTES = 48;

  final long id;
  final String name;
  final long createdMs;
  // Sealed chunks, guarded by this.
  long sealedCount;
  long sealedFirst = Long.MAX_VALUE;
  long sealedMax = Long.MIN_VALUE;
  double sealedLastValue = Double.NaN;
  GorillaEncoder head;
  // When the memory-host first looked at the current head's age (0: not yet). Heads age by how
  // long they have been held, not by their points' timestamps: a sensor whose clock runs late, or
  // that delivers an old backlog, would otherwise have its head sealed at every look, one chunk of
  // a few points a minute. Guarded by this.
  long headSeenMs;
  // The last point-log record with points the head holds (-1 if unknown): a head checkpointed
  // with it makes replay skip that record and every earlier one for this series. Guarded by this.
  long headSeq = -1;
  // Every point at or before this instant is folded into the archive (none known after a restart
  // until the consolidator's next visit): retention drops no later point. Guarded by this.
  long archivedThroughMs = Long.MIN_VALUE;
  volatile long count;
  volatile long firstTime;
  volatile long lastTime = Long.MIN_VALUE;
  volatile double lastValue = Double.NaN;
  volatile boolean deleted;
  // Parsed on first use; a racing second parse yields an equal value, so no lock is needed.
  private SeriesName parsedName;

  SeriesState(long id, String name, long createdMs) {
    this.id = id;
    this.name = name;
    this.createdMs = createdMs;
  }

  public String name() {
    return name;
  }

  /** The name parsed (it was valid when the series was created). */
  public SeriesName parsedName() {
    SeriesName p = parsedName;
    if (p == null) {
      p = SeriesName.parse(name);
      parsedName = p;
    }
    return p;
  }

  /**
   * Tells it that its archive holds every point at or before {@code throughMs}; call holding its
   * monitor. Retention drops raw points only up to there, so none is gone before it is archived.
   */
  public void archivedThrough(long throughMs) {
    archivedThroughMs = Math.max(archivedThroughMs, throughMs);
  }

  /** Whether the series was deleted (a holder of this object must look its name up again). */
  public boolean deleted() {
    return deleted;
  }

  /** Raw points held. */
  public long count() {
    return count;
  }

  /** Oldest raw point held, or 0 if none. */
  public long firstTime() {
    return count == 0 ? 0 : firstTime;
  }

  /** Newest point's time, or 0 if none. */
  public long lastTime() {
    return count == 0 ? 0 : lastTime;
  }

  public double lastValue() {
    return lastValue;
  }

  int headCount() {
    return head == null ? 0 : head.count();
  }

  /** Recomputes the volatile summary after a change; call holding the monitor. */
  void summarize() {
    long first = sealedFirst;
    long last = sealedMax;
    double lastV = sealedLastValue;
    if (head != null) {
      first = Math.min(first, head.minTime());
      if (head.maxTime() > last) {
        last = head.maxTime();
        lastV = head.valueAtMax();
      }
    }
    firstTime = first;
    lastValue = lastV;
    lastTime = last;
    count = sealedCount + headCount();
  }

  byte[] record() {
    return ByteBuffer.allocate(RECORD_BYTES)
        .putLong(id)
        .putLong(createdMs)
        .putLong(sealedCount)
        .putLong(sealedFirst)
        .putLong(sealedMax)
        .putDouble(sealedLastValue)
        .array();
  }

  static SeriesState fromRecord(String name, byte[] record) {
    ByteBuffer b = ByteBuffer.wrap(record);
    SeriesState s = new SeriesState(b.getLong(), name, b.getLong());
    s.sealedCount = b.getLong();
    s.sealedFirst = b.getLong();
    s.sealedMax = b.getLong();
    s.sealedLastValue = b.getDouble();
    return s;
  }
}
