package org.netweather.forecaster.battery;

import java.util.Locale;

/**
 * Forecasts the next change of the series as a linear function of its last {@code order} changes,
 * with weights learned by normalized least-mean-squares (stochastic gradient).
 *
 * <p>The early NWS papers list a stochastic-gradient ("GRAD") predictor that the surviving code
 * lacks (docs/forecasting.md). This is the textbook normalized LMS filter (Haykin, "Adaptive Filter
 * Theory", 4th ed., §6) applied to first differences, i.e. an ARIMA(order, 1, 0) model fitted
 * online: forecast = x(t) + w . [dx(t), ..., dx(t-order+1)], and after seeing the next change e =
 * dx(t+1) - w . d, w += mu * e * d / |d|^2. Normalizing by |d|^2 makes the step size independent of
 * the series' units. O(order) per measurement.
 *
 * <p>The sign-error variant ({@link #signError}) steps by the sign of the error only: w += mu *
 * sign(e) * d / sqrt(|d|^2 + order * power), a stochastic gradient of |e| rather than of e^2, so
 * one large change moves the weights no further than any other error, which suits series judged by
 * absolute error (Haykin, op. cit.; E. Eweda, "Comparison of RLS, LMS, and Sign Algorithms for
 * Tracking Randomly Time-Varying Channels", IEEE Trans. Signal Processing 42(11), 1994).
 */
final class NormalizedLms implements Predictor {
  private static final double POWER_GAIN = 0.01;

  private final boolean signError;
  private final double rate;
  private final double[] weights;
  // The last `order` changes twice over, newest first from head (changes[head + i] is the i-th
  // newest), so the regressor is one contiguous run without copying it every measurement.
  private final double[] changes;
  private int head;
  private double last = Double.NaN;
  private double forecastChange;
  private double power; // slowly averaged squared change
  private long seen;

  NormalizedLms(int order, double rate) {
    this(order, rate, false);
  }

  /** The sign-error variant, which minimises absolute error; rate in (0, 1). */
  static NormalizedLms signError(int order, double rate) {
    return new NormalizedLms(order, rate, true);
  }

  private NormalizedLms(int order, double rate, boolean signError) {
    if (order < 1 || order > 64) {
      throw new IllegalArgumentException("order must be in [1, 64]: " + order);
    }
    double maxRate = signError ? 1 : 2;
    if (!(rate > 0 && rate < maxRate)) {
      throw new IllegalArgumentException("rate must be in (0, " + (int) maxRate + "): " + rate);
    }
    this.signError = signError;
    this.rate = rate;
    this.weights = new double[order];
    this.changes = new double[2 * order];
  }

  @Override
  public void observe(double value) {
    seen++;
    if (seen == 1) {
      last = value;
      return;
    }
    double change = value - last;
    last = value;
    int order = weights.length;
    double[] d = changes;
    double[] w = weights;
    if (seen > order + 1) { // the regressor holds real changes only from here
      int h = head;
      double error = change - forecastChange;
      double energy = 0;
      for (int i = 0; i < order; i++) {
        double c = d[h + i];
        energy += c * c;
      }
      // Regularize by the long-run power of the changes: after a quiet stretch one spike would
      // otherwise be divided by almost nothing and throw the weights far off.
      power += POWER_GAIN * (change * change - power);
      energy += order * power;
      if (energy > 0 && error != 0) {
        double step =
            signError ? Math.copySign(rate, error) / Math.sqrt(energy) : rate * error / energy;
        for (int i = 0; i < order; i++) {
          w[i] += step * d[h + i];
        }
      }
    }
    int h = head == 0 ? order - 1 : head - 1;
    d[h] = change;
    d[h + order] = change;
    head = h;
    double next = 0;
    double largest = 0;
    for (int i = 0; i < order; i++) {
      double c = d[h + i];
      next += w[i] * c;
      largest = Math.max(largest, Math.abs(c));
    }
    // Never forecast a move larger than any of the recent ones.
    forecastChange = Double.isFinite(next) ? Math.max(-largest, Math.min(largest, next)) : 0;
  }

  @Override
  public double update(double value) {
    observe(value); // this class is final: both calls inline here
    return predict();
  }

  @Override
  public double predict() {
    return last + forecastChange;
  }

  @Override
  public String name() {
    return signError
        ? String.format(Locale.ROOT, "sign-lms-%d-%.3f", weights.length, rate)
        : String.format(Locale.ROOT, "nlms-%d-%.2f", weights.length, rate);
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(8 + 4 + 4 + 4 + 4 + 1 + 8 + 8 + 8 + 8)
        + StateBytes.doubles(weights.length)
        + StateBytes.doubles(2 * weights.length);
  }
}
