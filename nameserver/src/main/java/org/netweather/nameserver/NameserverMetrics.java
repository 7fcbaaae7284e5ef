package org.netweather.nameserver;

import org.netweather.runtime.metrics.LiveGauge;

/**
 * What a nameserver holds, as Prometheus metrics beside the RPC metrics every daemon has:
 *
 * <pre>
 *   netweather_nameserver_live_registrations{daemon}   registrations whose lease is live
 *   netweather_nameserver_directory_series{daemon}     series assigned to a memory-host
 *   netweather_nameserver_journal_damaged_records{daemon}  changes lost to journal damage at start
 *   netweather_nameserver_stalls{daemon}               stalls seen, each granting leases a TTL
 * </pre>
 *
 * <p>Registered once per process (tests run several daemons in one JVM). Leases expire by time, not
 * by an event, so there is no counter of expiries: a falling gauge shows them.
 */
final class NameserverMetrics {
  private static final LiveGauge LIVE_REGISTRATIONS =
      LiveGauge.standard(
          "netweather_nameserver_live_registrations", "Registrations whose lease has not expired");
  private static final LiveGauge DIRECTORY_SERIES =
      LiveGauge.standard(
          "netweather_nameserver_directory_series",
          "Series the directory has assigned to a memory-host");

  private static final LiveGauge JOURNAL_DAMAGED =
      LiveGauge.standard(
          "netweather_nameserver_journal_damaged_records",
          "Changes (registrations, assignments, cliques) lost to damage found in the journal when"
              + " the nameserver started (a lower bound); 0 when the journal was sound");

  private static final LiveGauge STALLS =
      LiveGauge.standard(
          "netweather_nameserver_stalls",
          "Times the nameserver found it had not served for a while (paused, or no heartbeat reached"
              + " it) and granted every lease one more TTL, since it started");

  private NameserverMetrics() {}

  /** Reports {@code ns}'s registrations and directory under {@code daemon} until closed. */
  static AutoCloseable gauges(String daemon, Nameserver ns) {
    return LiveGauge.all(
        LIVE_REGISTRATIONS.add(daemon, ns::liveRegistrations),
        DIRECTORY_SERIES.add(daemon, ns::directorySize),
        JOURNAL_DAMAGED.add(daemon, ns::journalDamagedRecords),
        STALLS.add(daemon, ns::stallsSeen));
  }
}
