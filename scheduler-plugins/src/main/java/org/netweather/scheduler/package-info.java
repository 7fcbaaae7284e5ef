/**
 * Scheduler plugins: schedulers that place work using NetWeather forecasts.
 *
 * <p>The algorithms live in subpackages and are pure functions of a resource snapshot ({@link
 * org.netweather.scheduler.frame}): no gRPC inside them, so every one is testable from a table in
 * its paper. Live data comes only through {@code org.netweather.client.NetWeatherClient} (a cluster
 * snapshot from a proxy), and the {@code nws schedule} commands that run them live in the {@code
 * cli} module ({@code org.netweather.cli.schedule}), found there by {@link
 * java.util.ServiceLoader}. Simulators, the Jacobi demonstrator and the example swapping
 * application are in the {@code scheduler-sim} module.
 *
 * <ul>
 *   <li>{@link org.netweather.scheduler.frame}: the snapshot model and its JSON file reader.
 *   <li>{@link org.netweather.scheduler.jacobi}: AppLeS Jacobi2D strip partitioning.
 *   <li>{@link org.netweather.scheduler.tree}: interference-aware task farming on trees.
 *   <li>{@link org.netweather.scheduler.pipeline}: placing filter pipelines.
 *   <li>{@link org.netweather.scheduler.cluster}: latency clusters and hierarchical broadcast.
 *   <li>{@link org.netweather.scheduler.swap}: process swapping for iterative applications.
 * </ul>
 */
package org.netweather.scheduler;
