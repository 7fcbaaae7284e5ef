/**
 * The per-host sensor's engine: the skills that take measurements, the probe transport between
 * sensors, the clique token protocol and the delivery spool.
 *
 * <p>The daemon (gRPC {@code SensorControl}, registration, delivery) assembles these pieces. The
 * contracts here are transport-free: a {@link org.netweather.sensor.Skill} returns {@link
 * org.netweather.sensor.Reading}s and takes its clock as a {@link org.netweather.sensor.Ticker}, so
 * every algorithm runs under a fake clock in tests.
 *
 * <ul>
 *   <li>{@code host}: the host-metrics source (OSHI behind an interface);
 *   <li>{@code cpu}, {@code memory}: single-host skills;
 *   <li>{@code probe}: the Netty probe server and client ({@code tcp.*} skills);
 *   <li>{@code stats}, {@code interference}: least squares and the interference-rate skill;
 *   <li>{@code spool}: measurements kept on disk until a memory-host acknowledges them;
 *   <li>{@code clique}: the token protocol that keeps a clique's probes from overlapping.
 * </ul>
 */
package org.netweather.sensor;
