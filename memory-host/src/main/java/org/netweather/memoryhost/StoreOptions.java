package org.netweather.memoryhost;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a {@link MeasurementStore} keeps data and what it lets callers create.
 *
 * @param dataDir where the database and its lock live
 * @param rawPoints raw points kept per series until a retention call changes it
 * @param rawMaxAge raw points older than this are dropped (zero: no age limit)
 * @param maxSeries series the store may hold in all
 * @param maxNewSeriesPerCall series one append may create
 * @param maxNewSeriesPerCallerPerMinute series one caller (host) may create per minute
 * @param consolidationInterval how often each series' archive is brought up to date
 * @param maxQueuedPerCaller appends one caller may have waiting in the write queue (of 4 096); its
 *     points are bounded in the same proportion (of a million)
 */
public record StoreOptions(
    Path dataDir,
    long rawPoints,
    Duration rawMaxAge,
    int maxSeries,
    int maxNewSeriesPerCall,
    int maxNewSeriesPerCallerPerMinute,
    Duration consolidationInterval,
    int maxQueuedPerCaller) {

  public StoreOptions {
    if (rawPoints < 1) {
      throw new IllegalArgumentException("rawPoints " + rawPoints + " must be at least 1");
    }
    if (rawMaxAge.isNegative()) {
      throw new IllegalArgumentException("rawMaxAge " + rawMaxAge + " is negative");
    }
    if (maxSeries < 1 || maxNewSeriesPerCall < 1 || maxNewSeriesPerCallerPerMinute < 1) {
      throw new IllegalArgumentException("series limits must be at least 1");
    }
    if (maxQueuedPerCaller < 1) {
      throw new IllegalArgumentException("maxQueuedPerCaller must be at least 1");
    }
    if (consolidationInterval.toSeconds() < 1) {
      throw new IllegalArgumentException(
          "consolidationInterval " + consolidationInterval + " is below one second");
    }
  }

  /** Defaults that hold a site of 10 000 hosts (470 000 series) with room to spare. */
  public static StoreOptions defaults(Path dataDir) {
    return new StoreOptions(
        dataDir, 10_000, Duration.ZERO, 2_000_000, 1_000, 20_000, Duration.ofHours(2), 1_024);
  }

  public StoreOptions withRawPoints(long n) {
    return new StoreOptions(
        dataDir,
        n,
        rawMaxAge,
        maxSeries,
        maxNewSeriesPerCall,
        maxNewSeriesPerCallerPerMinute,
        consolidationInterval,
        maxQueuedPerCaller);
  }

  public StoreOptions withLimits(int series, int perCall, int perCallerPerMinute) {
    return new StoreOptions(
        dataDir,
        rawPoints,
        rawMaxAge,
        series,
        perCall,
        perCallerPerMinute,
        consolidationInterval,
        maxQueuedPerCaller);
  }
}
