/**
 * Interference-aware scheduling of independent tasks on a tree overlay, after Kreaseck, Carter,
 * Casanova, Ferrante and Nandy, "Interference-Aware Scheduling", IJHPCA 20(1), 2006 (with the
 * paper's errata settled in docs/schedulers/interference-trees.md).
 *
 * <ul>
 *   <li>{@link org.netweather.model.interference.InterferenceFit} and {@link
 *       org.netweather.model.interference.InterferenceCalibration} (model module, shared with the
 *       sensor): interference rates from measurements (§2a.1), with the corrected calibration
 *       formula.
 *   <li>{@link org.netweather.scheduler.tree.ChildPriority}: which children a parent serves first
 *       and which it never serves, for multi-port and single-port sends.
 *   <li>{@link org.netweather.scheduler.tree.ThroughputBound}: the steady-state bound on tasks per
 *       second (§2a.2).
 *   <li>{@code TaskFarmSimulator} (scheduler-sim): a discrete-event simulation of the paper's
 *       autonomous protocols.
 *   <li>{@link org.netweather.scheduler.tree.TreeReader}: the tree file format.
 *   <li>{@code ApplicationSweep} (scheduler-sim): the paper's 18 application types.
 * </ul>
 *
 * <h2>Units</h2>
 *
 * Task sizes in MB and transfer rates in MB/s (the paper's units; MB = 10^6 bytes is assumed, only
 * ratios matter), compute rates in compute units per second (the paper's diagonals of a 1024×1024
 * matrix), interference rates as fractions of the compute rate per MB/s. The paper's Table 4
 * caption says "percent" but the values are fractions (docs/schedulers/interference-trees.md,
 * errata).
 */
package org.netweather.scheduler.tree;
