/**
 * Scheduler plugins: schedulers that place work using NetWeather forecasts.
 *
 * <p>A plugin is found through a {@link org.netweather.scheduler.SchedulerPluginProvider}: the
 * {@link org.netweather.scheduler.SchedulerPluginRegistry} holds the providers registered by hand
 * and those found by {@link java.util.ServiceLoader}, and {@code nws schedule NAME} runs the one
 * called NAME. The algorithms themselves live in subpackages and are pure functions of a
 * resource snapshot ({@link org.netweather.scheduler.frame}): no gRPC inside them, so every one
 * is testable from a table in its paper.
 *
 * <ul>
 *   <li>{@link org.netweather.scheduler.frame}: the snapshot model and its JSON file reader.
 *   <li>{@link org.netweather.scheduler.jacobi}: AppLeS Jacobi2D strip partitioning.
 *   <li>{@link org.netweather.scheduler.tree}: interference-aware task farming on trees.
 *   <li>{@link org.netweather.scheduler.cli}: the {@code nws schedule} commands.
 * </ul>
 */
package org.netweather.scheduler;
