/**
 * AppLeS Jacobi2D: strip partitioning of an N×N Jacobi grid over heterogeneous, shared hosts, after
 * Berman, Wolski, Figueira, Schopf and Shao, "Application-Level Scheduling on Distributed
 * Heterogeneous Networks", Supercomputing 1996 (reconstructed in docs/schedulers/jacobi.md).
 *
 * <ul>
 *   <li>{@link org.netweather.scheduler.jacobi.StripModel}: per-host time per point and border
 *       exchange costs from a snapshot.
 *   <li>{@link org.netweather.scheduler.jacobi.HostChain}: the locus and the resource list by
 *       logical distance.
 *   <li>{@link org.netweather.scheduler.jacobi.StripBalancer}, {@link
 *       org.netweather.scheduler.jacobi.CappedStripBalancer}, {@link
 *       org.netweather.scheduler.jacobi.StripRounder}: the time balance, closed form and
 *       memory-capped, and integer widths.
 *   <li>{@link org.netweather.scheduler.jacobi.JacobiScheduler}: resource selection and the
 *       feasibility filters, producing a {@link org.netweather.scheduler.jacobi.JacobiSchedule}.
 *   <li>{@code JacobiDemonstrator} (scheduler-sim): runs real Jacobi sweeps on local threads with a
 *       schedule's widths and compares predicted and measured times.
 * </ul>
 *
 * <p>Application parameters, read from the snapshot's {@code parameters} maps: per host (or
 * snapshot-wide as a default) {@code secondsPerPoint}, the dedicated CPU time to update one grid
 * point; snapshot-wide {@code size} (N), {@code bytesPerElement} (default 8) and {@code
 * bytesPerPoint} (default 16: the old and the new grid).
 */
package org.netweather.scheduler.jacobi;
