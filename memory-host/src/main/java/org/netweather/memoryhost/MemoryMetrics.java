package org.netweather.memoryhost;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import org.netweather.runtime.metrics.LiveGauge;

/**
 * What a memory-host does, as Prometheus metrics beside the RPC metrics every daemon has:
 *
 * <pre>
 *   netweather_memory_appended_measurements_total{daemon}     new points stored
 *   netweather_memory_wal_commit_duration_seconds{daemon}     one group's write and fsync
 *   netweather_memory_series{daemon}                          series stored
 *   netweather_memory_watch_streams{daemon}                   open watch streams
 *   netweather_memory_append_streams{daemon}                  open append streams
 *   netweather_memory_damaged_series{daemon}                  series with unreadable stored data
 *   netweather_memory_damaged_reads{daemon}                   reads that found stored data damaged
 * </pre>
 *
 * <p>The metrics are registered once per process (tests run several daemons in one JVM); each
 * daemon binds its {@code daemon} label once, so the writer thread only increments.
 */
final class MemoryMetrics {
  // fsync of a small group is sub-millisecond on SSDs and tens of milliseconds on disks.
  private static final double[] COMMIT_BUCKETS = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5
  };

  private static final Counter APPENDED =
      Counter.builder()
          .name("netweather_memory_appended_measurements")
          .help(
              "Measurements stored by appends; points already stored (retried appends) are not"
                  + " counted")
          .labelNames("daemon")
          .register();
  private static final Histogram WAL_COMMIT =
      Histogram.builder()
          .name("netweather_memory_wal_commit_duration_seconds")
          .help("Time to write one group of appends to the write-ahead log and force it to disk")
          .labelNames("daemon")
          .classicOnly()
          .classicUpperBounds(COMMIT_BUCKETS)
          .register();
  private static final LiveGauge SERIES =
      LiveGauge.standard("netweather_memory_series", "Series stored by a memory-host");
  private static final LiveGauge WATCH_STREAMS =
      LiveGauge.standard(
          "netweather_memory_watch_streams", "Watch streams a memory-host is serving");
  private static final LiveGauge APPEND_STREAMS =
      LiveGauge.standard(
          "netweather_memory_append_streams", "Append streams open on a memory-host");

  private static final LiveGauge DAMAGED_SERIES =
      LiveGauge.standard(
          "netweather_memory_damaged_series",
          "Series found with stored data that cannot be read (checksum mismatch, unreadable block)"
              + " since the memory-host started; they answer DATA_LOSS");
  private static final LiveGauge DAMAGED_READS =
      LiveGauge.standard(
          "netweather_memory_damaged_reads",
          "Reads of stored data that failed on damage since the memory-host started");

  /** Records nothing: for stores opened outside a daemon (tests, benchmarks). */
  static final MemoryMetrics NONE = new MemoryMetrics(null, null);

  private final CounterDataPoint appended;
  private final DistributionDataPoint walCommit;

  private MemoryMetrics(CounterDataPoint appended, DistributionDataPoint walCommit) {
    this.appended = appended;
    this.walCommit = walCommit;
  }

  /** The counters of the daemon called {@code daemon}. */
  static MemoryMetrics forDaemon(String daemon) {
    return new MemoryMetrics(APPENDED.labelValues(daemon), WAL_COMMIT.labelValues(daemon));
  }

  void appended(long points) {
    if (appended != null && points > 0) {
      appended.inc(points);
    }
  }

  void walCommitted(long nanos) {
    if (walCommit != null) {
      walCommit.observe(nanos / 1e9);
    }
  }

  /**
   * Reports {@code store}'s series, its watch streams and {@code service}'s append streams under
   * {@code daemon} until closed.
   */
  static AutoCloseable gauges(String daemon, MeasurementStore store, MemoryHostService service) {
    return LiveGauge.all(
        SERIES.add(daemon, store::seriesCount),
        WATCH_STREAMS.add(daemon, store::watchStreams),
        APPEND_STREAMS.add(daemon, service::appendStreams),
        DAMAGED_SERIES.add(daemon, store::damagedSeries),
        DAMAGED_READS.add(daemon, store::damagedReads));
  }
}
