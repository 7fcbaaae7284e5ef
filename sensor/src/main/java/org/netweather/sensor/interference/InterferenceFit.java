package org.netweather.sensor.interference;

import java.util.List;
import org.netweather.sensor.stats.LeastSquares;
import org.netweather.sensor.stats.LinearFit;

/**
 * Fits the interference rate to samples of (transfer rate, compute rate).
 *
 * <pre>
 * Kreaseck et al. §2.2, restated in docs/measurement.md, "Interference rates":
 *
 *   1. average compute and transfer rates over regular intervals (the caller's samples);
 *   2. normalise each compute rate by the maximum compute rate achieved;
 *   3. fit y = c0 - IR * x by linear least squares, x = transfer rate in MB/s, y = normalised
 *      compute rate;
 *   4. IR = -slope; its standard error is the slope's (a linear fit was found good enough:
 *      a quadratic one gained little, §2.3).
 * </pre>
 */
public final class InterferenceFit {

  private InterferenceFit() {}

  /**
   * Fits {@code samples}.
   *
   * @throws IllegalArgumentException with fewer than three samples, fewer than two distinct
   *     transfer rates, or no positive compute rate
   */
  public static InterferenceRate fit(List<InterferenceSample> samples) {
    if (samples.size() < 3) {
      throw new IllegalArgumentException("need at least 3 samples, have " + samples.size());
    }
    double max = 0;
    for (InterferenceSample s : samples) {
      max = Math.max(max, s.computeRate());
    }
    if (!(max > 0)) {
      throw new IllegalArgumentException("no positive compute rate among the samples");
    }
    LeastSquares ls = new LeastSquares();
    for (InterferenceSample s : samples) {
      ls.add(s.transferMBps(), s.computeRate() / max);
    }
    LinearFit line;
    try {
      line = ls.fit();
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException("samples need at least two distinct transfer rates", e);
    }
    return new InterferenceRate(
        -line.slope(), line.slopeStdError(), line.intercept(), line.n(), line.rSquared());
  }
}
