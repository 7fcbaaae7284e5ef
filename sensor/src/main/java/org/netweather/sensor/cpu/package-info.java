/**
 * The {@code cpu.availability} skill: the original NWS hybrid of cheap passive readings corrected
 * by an occasional active spin probe (docs/measurement.md, "CPU availability").
 *
 * <p>{@link org.netweather.sensor.cpu.HybridCpuAvailability} and {@link
 * org.netweather.sensor.cpu.ActiveProbeFuse} are pure and clock-free; {@link
 * org.netweather.sensor.cpu.SpinProbe} burns real CPU; {@link
 * org.netweather.sensor.cpu.CpuAvailabilitySkill} wires them to a {@link
 * org.netweather.sensor.host.HostMetrics}.
 */
package org.netweather.sensor.cpu;
