package org.netweather.sensor.spool;

/**
 * Size limits of a {@link Spool}.
 *
 * @param maxBytes disk the spool may use (default 64 MiB, about 1.4 million measurements of 48
 *     bytes: over two weeks of a typical sensor's output)
 * @param segmentBytes size at which a segment file is closed and a new one started (default 1/8 of
 *     {@code maxBytes}); also the granularity of dropping when full
 */
public record SpoolOptions(long maxBytes, long segmentBytes) {

  public SpoolOptions {
    if (segmentBytes < 1024 || maxBytes < 2 * segmentBytes) {
      throw new IllegalArgumentException(
          "need segmentBytes >= 1 KiB and maxBytes >= 2 * segmentBytes");
    }
  }

  /** The defaults above. */
  public static SpoolOptions defaults() {
    return of(64L << 20);
  }

  /** {@code maxBytes} split into 8 segments. */
  public static SpoolOptions of(long maxBytes) {
    return new SpoolOptions(maxBytes, maxBytes / 8);
  }
}
