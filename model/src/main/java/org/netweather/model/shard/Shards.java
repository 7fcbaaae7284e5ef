package org.netweather.model.shard;

import java.nio.charset.StandardCharsets;
import org.netweather.model.SeriesName;

/**
 * The site's fixed set of {@value #COUNT} virtual shards, keyed by a series' source host so that a
 * host's own series and every pair series it measures land in one shard: one sensor, one delivery
 * stream per replica. The count never changes on a running site (owners change, shards do not),
 * which is why it is large: a shard of a 100 000-host site holds about 24 hosts, small enough to
 * move in seconds. The hash is MurmurHash3 (x86, 32 bit, seed 0) of the host name's UTF-8 bytes, so
 * any language can compute it. See {@code docs/sharding.md}.
 */
public final class Shards {
  /** Shards on every site; a power of two, so a shard fits 12 bits. */
  public static final int COUNT = 4096;

  private Shards() {}

  /** The shard of a source host. */
  public static int ofHost(String host) {
    byte[] bytes = host.getBytes(StandardCharsets.UTF_8);
    return Integer.remainderUnsigned(Murmur3.hash32(bytes, 0), COUNT);
  }

  /** The shard of a series: that of its source host. */
  public static int of(SeriesName series) {
    return ofHost(series.source());
  }

  /** The shard of a series name. */
  public static int of(String series) {
    return of(SeriesName.parse(series));
  }

  /**
   * Checks a shard number from outside.
   *
   * @throws IllegalArgumentException naming the value if it is not in [0, COUNT)
   */
  public static int check(int shard) {
    if (shard < 0 || shard >= COUNT) {
      throw new IllegalArgumentException(
          "shard " + shard + " is out of range: shards are 0 to " + (COUNT - 1));
    }
    return shard;
  }
}
