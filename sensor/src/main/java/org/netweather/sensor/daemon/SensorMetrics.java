package org.netweather.sensor.daemon;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.netweather.runtime.metrics.LiveGauge;
import org.netweather.sensor.spool.Spool;

/**
 * What a sensor does, as Prometheus metrics beside the RPC metrics every daemon has:
 *
 * <pre>
 *   netweather_sensor_measurements_total{daemon, skill}          measurements spooled
 *   netweather_sensor_failed_measurements_total{daemon, skill}   measurements that failed
 *   netweather_sensor_spool_dropped_measurements_total{daemon}   lost to a full spool
 *   netweather_sensor_spool_pending_measurements{daemon}         waiting for an ack
 *   netweather_sensor_spool_bytes{daemon}                        spool files on disk
 *   netweather_sensor_refused_measurements_total{daemon, reason} refused by a memory-host
 *   netweather_sensor_clock_offset_seconds{daemon}               site's clock minus this host's
 * </pre>
 *
 * <p>Registered once per process (tests run several daemons in one JVM). Each daemon binds its
 * label values once, for every skill it has, so recording a measurement is a map lookup and an
 * increment. Skills and the spool know nothing of metrics.
 */
final class SensorMetrics {
  private static final Counter MEASUREMENTS =
      Counter.builder()
          .name("netweather_sensor_measurements")
          .help("Measurements a sensor's activities and clique turns took and spooled, by skill")
          .labelNames("daemon", "skill")
          .register();
  private static final Counter FAILED =
      Counter.builder()
          .name("netweather_sensor_failed_measurements")
          .help(
              "Measurements that failed (error, time-out, cancelled clique turn, spool write),"
                  + " by skill")
          .labelNames("daemon", "skill")
          .register();
  private static final Counter DROPPED =
      Counter.builder()
          .name("netweather_sensor_spool_dropped_measurements")
          .help("Undelivered measurements deleted because the spool was full")
          .labelNames("daemon")
          .register();
  private static final Counter REFUSED =
      Counter.builder()
          .name("netweather_sensor_refused_measurements")
          .help(
              "Measurements a memory-host refused, by reason: future_timestamp (stamped more than a"
                  + " minute ahead of its clock; kept spooled and sent again stamped with its time),"
                  + " invalid (a value it never takes; dropped)")
          .labelNames("daemon", "reason")
          .register();
  private static final LiveGauge CLOCK_OFFSET =
      LiveGauge.standard(
          "netweather_sensor_clock_offset_seconds",
          "The site's clock (memory-hosts', else the nameserver's) minus this host's, as learned"
              + " from their answers; past 30 s either way the sensor stamps with the site's time");
  private static final LiveGauge SPOOL_PENDING =
      LiveGauge.standard(
          "netweather_sensor_spool_pending_measurements",
          "Measurements spooled and not yet acknowledged by a memory-host");
  private static final LiveGauge SPOOL_BYTES =
      LiveGauge.standard("netweather_sensor_spool_bytes", "Disk used by the spool's segment files");

  private final String daemon;
  private final Map<String, CounterDataPoint> taken = new HashMap<>();
  private final Map<String, CounterDataPoint> failed = new HashMap<>();
  private final CounterDataPoint dropped;
  private final AtomicLong droppedSeen = new AtomicLong();

  private SensorMetrics(String daemon, Collection<String> skills) {
    this.daemon = daemon;
    for (String s : skills) {
      taken.put(s, MEASUREMENTS.labelValues(daemon, s));
      failed.put(s, FAILED.labelValues(daemon, s));
    }
    this.dropped = DROPPED.labelValues(daemon);
  }

  /** The counters of the daemon called {@code daemon}, which has {@code skills}. */
  static SensorMetrics forDaemon(String daemon, Collection<String> skills) {
    return new SensorMetrics(daemon, skills);
  }

  /** A measurement of {@code skill} was spooled. */
  void taken(String skill) {
    CounterDataPoint c = taken.get(skill);
    (c != null ? c : MEASUREMENTS.labelValues(daemon, skill)).inc();
  }

  /** A measurement of {@code skill} failed. */
  void failed(String skill) {
    CounterDataPoint c = failed.get(skill);
    (c != null ? c : FAILED.labelValues(daemon, skill)).inc();
  }

  /**
   * Counts what the spool dropped since last called. The spool only drops while appending and keeps
   * a running total, so the recorder hands that total over after each append.
   */
  void spoolDropped(long droppedSinceOpen) {
    long before = droppedSeen.getAndAccumulate(droppedSinceOpen, Math::max);
    if (droppedSinceOpen > before) {
      dropped.inc(droppedSinceOpen - before);
    }
  }

  /** A memory-host refused {@code n} measurements for {@code reason}. */
  void refused(String reason, long n) {
    REFUSED.labelValues(daemon, reason).inc(n);
  }

  /** Reports {@code clock}'s offset under {@code daemon} until closed. */
  static AutoCloseable clockGauge(String daemon, SiteClock clock) {
    return CLOCK_OFFSET.add(daemon, () -> clock.offsetMs() / 1000.0);
  }

  /** Reports {@code spool}'s backlog and size under {@code daemon} until closed. */
  static AutoCloseable gauges(String daemon, Spool spool) {
    return LiveGauge.all(
        SPOOL_PENDING.add(daemon, spool::pending), SPOOL_BYTES.add(daemon, spool::sizeBytes));
  }
}
