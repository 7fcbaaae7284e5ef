/**
 * The {@code interference.send} and {@code interference.recv} skills: how much of this host's
 * compute rate one MB/s of sending to (receiving from) a peer costs, after Kreaseck et al.,
 * "Interference-Aware Scheduling" (Kreaseck et al. §2; docs/measurement.md, "Interference rates").
 *
 * <p>{@link org.netweather.sensor.interference.InterferenceFit} and {@link
 * org.netweather.sensor.interference.InterferenceModel} are pure arithmetic; {@link
 * org.netweather.sensor.interference.InterferenceExperiment} drives a compute kernel and a
 * transfer under an injected clock; {@link org.netweather.sensor.interference.InterferenceSkill}
 * runs it against a peer's probe port.
 */
package org.netweather.sensor.interference;
