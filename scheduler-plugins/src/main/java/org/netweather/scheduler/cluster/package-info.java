/**
 * Logical clusters and hierarchical collectives after Nasri, Steffenel and Trystram, "Adaptive
 * performance modeling on hierarchical grid computing environments", CCGrid'07 (reconstructed with
 * the paper's errata in docs/schedulers/clusters.md).
 *
 * <ul>
 *   <li>{@link org.netweather.scheduler.cluster.LatencyClustering}: phase 1, clusters from a
 *       latency matrix ({@link org.netweather.scheduler.cluster.LatencyMatrixReader}: CSV).
 *   <li>{@link org.netweather.scheduler.cluster.CommModel} (Hockney, LogP, LogGP, pLogP) and {@link
 *       org.netweather.scheduler.cluster.BroadcastAlgorithm} (Table 3).
 *   <li>{@link org.netweather.scheduler.cluster.ModelSelector}: phase 2, the poly-model.
 *   <li>{@link org.netweather.scheduler.cluster.EcefScheduler}: phase 3, ECEF and ECEF-LAt; {@link
 *       org.netweather.scheduler.cluster.HierarchicalBroadcast} puts the phases together and {@link
 *       org.netweather.scheduler.cluster.FlatBinomial} is the baseline.
 * </ul>
 *
 * Times and sizes are in any consistent unit (tests: µs and bytes; the CLI: seconds).
 */
package org.netweather.scheduler.cluster;
