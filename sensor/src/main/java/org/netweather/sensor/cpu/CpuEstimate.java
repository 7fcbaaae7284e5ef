package org.netweather.sensor.cpu;

/**
 * The outcome of one check of the hybrid CPU sensor.
 *
 * @param available the reported share of one core a new CPU-bound process would get, in [0, 1]
 * @param passive the passive estimate the report was corrected from
 * @param bias the correction (active minus passive at the last probe)
 * @param probed whether this check ran the active probe
 */
public record CpuEstimate(double available, double passive, double bias, boolean probed) {}
