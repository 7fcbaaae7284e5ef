package org.netweather.runtime.recordlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.Map;

/**
 * Iterates a {@link RecordLog}'s whole records in order, across segments, up to the end the log had
 * when each segment was entered.
 *
 * <pre>{@code
 * RecordReader r = log.read(log.firstNumber());
 * while (r.next()) {
 *   apply(r.number(), r.payload());
 * }
 * }</pre>
 */
public final class RecordReader {
  private final long from;
  private final Iterator<Map.Entry<Long, RecordFile>> rest;
  private FrameReader frames;
  private long nextNumber;
  private long segment;
  private long number = -1;
  private long offset = -1;

  RecordReader(RecordLog log, RecordLog.Position start, long from) {
    this.from = from;
    this.rest = log.segments.tailMap(start.segment(), false).entrySet().iterator();
    RecordFile seg = log.segments.get(start.segment());
    this.frames = seg.reader(start.offset(), seg.size());
    this.segment = start.segment();
    this.nextNumber = start.number();
  }

  /** Advances to the next record; false when there is none. */
  public boolean next() throws IOException {
    while (true) {
      long at = frames.offset();
      if (frames.next()) {
        number = nextNumber++;
        offset = at;
        if (number >= from) {
          return true;
        }
        continue;
      }
      if (!rest.hasNext()) {
        number = -1;
        return false;
      }
      Map.Entry<Long, RecordFile> seg = rest.next();
      frames = seg.getValue().reader(0, seg.getValue().size());
      segment = seg.getKey();
      nextNumber = seg.getKey();
    }
  }

  /** The current record's number. */
  public long number() {
    return number;
  }

  /** The current record's payload, read-only; valid until the next call to {@link #next}. */
  public ByteBuffer payload() {
    return frames.payload();
  }

  /** The current record's payload as a new array. */
  public byte[] bytes() {
    return RecordFile.bytesOf(frames.payload());
  }

  /** Where the current record starts. */
  public RecordLog.Position position() {
    return new RecordLog.Position(segment, number, offset);
  }
}
