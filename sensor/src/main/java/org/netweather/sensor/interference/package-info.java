/**
 * The {@code interference.send} and {@code interference.recv} skills: how much of this host's
 * compute rate one MB/s of sending to (receiving from) a peer costs, after Kreaseck et al.,
 * "Interference-Aware Scheduling" (Kreaseck et al. §2; docs/measurement.md, "Interference rates").
 *
 * <p>The arithmetic (the least-squares fit and the k + 2 point calibration) lives in {@code
 * org.netweather.model.interference}, shared with the tree scheduler; {@link
 * org.netweather.sensor.interference.InterferenceExperiment} drives a compute kernel and a transfer
 * under an injected clock; {@link org.netweather.sensor.interference.InterferenceSkill} runs it
 * against a peer's probe port.
 */
package org.netweather.sensor.interference;
