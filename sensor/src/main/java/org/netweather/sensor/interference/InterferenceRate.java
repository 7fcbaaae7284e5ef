package org.netweather.sensor.interference;

/**
 * A fitted interference rate.
 *
 * @param rate IR: fraction of the maximum compute rate lost per MB/s transferred (the negative
 *     slope of the fit)
 * @param stdError standard error of {@code rate}
 * @param intercept normalised compute rate with no transfer; kept rather than assumed to be 1,
 *     because the paper's own fits reach 1.03 (docs/measurement.md, "Interference rates")
 * @param points number of samples fitted
 * @param rSquared how much of the compute rate's variation the line explains
 */
public record InterferenceRate(
    double rate, double stdError, double intercept, long points, double rSquared) {}
