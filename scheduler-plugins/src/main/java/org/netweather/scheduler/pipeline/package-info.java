/**
 * Filter pipelines after DataCutter: Spencer, Ferreira, Beynon, Kurc, Catalyurek, Sussman and
 * Saltz, "Executing multiple pipelined data analysis operations in the Grid", SC'02 (reconstructed
 * with the paper's errata in docs/schedulers/pipelines.md).
 *
 * <ul>
 *   <li>{@link org.netweather.scheduler.pipeline.FilterStats}: Table 1 tuning statistics and the
 *       rates derived from them; {@link org.netweather.scheduler.pipeline.PipelineReader}: the
 *       filters file.
 *   <li>{@link org.netweather.scheduler.pipeline.Topology}: hosts and links from a snapshot, plus
 *       the {@link org.netweather.scheduler.pipeline.SharedSegment}s NWS cannot see.
 *   <li>{@link org.netweather.scheduler.pipeline.FcpScheduler} (list scheduling on EFT, shared
 *       CPUs, point-to-point links) and {@link org.netweather.scheduler.pipeline.BfcScheduler}
 *       (rate balancing, shared links, power cap).
 *   <li>{@link org.netweather.scheduler.pipeline.MultiQueryScheduler}: MCI, MAC, MET.
 *   <li>{@code PipelineSimulator} (scheduler-sim): executes a placement with demand-driven buffers
 *       and max-min shared links, to check estimates.
 * </ul>
 *
 * <h2>Units</h2>
 *
 * Seconds, bytes and bytes/s inside; the filters file uses the paper's KB (1000 bytes) and segments
 * in Mbit/s like snapshots. Host speed is the host parameter {@code power} (1 = a tuning-run host)
 * times CPU availability.
 */
package org.netweather.scheduler.pipeline;
