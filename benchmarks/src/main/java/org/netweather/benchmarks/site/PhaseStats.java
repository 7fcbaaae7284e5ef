package org.netweather.benchmarks.site;

/**
 * What deliveries saw during one phase: measurements acknowledged, their latency from the instant
 * they were due to the memory-host's ack, the longest time without any ack, failed Append calls.
 * Guarded by the {@link AckLedger}'s lock.
 */
final class PhaseStats {
  final LatencyHistogram ack = new LatencyHistogram();

  /** Duration of successful Append calls: the memory-host's share of the ack latency. */
  final LatencyHistogram call = new LatencyHistogram();

  long acked;
  long failedCalls;
  long longestGapNanos;
  long startNanos;
  long endNanos;

  double seconds() {
    return (endNanos - startNanos) / 1e9;
  }
}
