package org.netweather.forecaster.battery;

import java.util.Locale;

/**
 * Forecasts the next change of the series as a linear function of its last {@code order} changes,
 * with weights learned by the sign-error LMS rule, which descends the absolute error rather than
 * the squared one.
 *
 * <p>{@link NormalizedLms} minimises squared error, so one large change moves its weights a long
 * way; the sign-error variant (Haykin, "Adaptive Filter Theory", 4th ed., Prentice Hall 2002, §6;
 * E. Eweda, "Comparison of RLS, LMS, and Sign Algorithms for Tracking Randomly Time-Varying
 * Channels", IEEE Trans. Signal Processing 42(11), 1994) steps by the sign of the error only:
 * forecast = x(t) + w . d, w += mu * sign(e) * d / sqrt(|d|^2 + order * power), a stochastic
 * gradient of |e| normalised so that the step is independent of the series' units. A spike moves it
 * as far as any other error, which suits series judged by absolute error. O(order) per measurement.
 */
final class SignErrorLms implements Predictor {
  private static final double POWER_GAIN = 0.01;

  private final double rate;
  private final double[] weights;
  private final double[] changes; // the last `order` changes twice over, newest first from head
  private int head;
  private double last = Double.NaN;
  private double forecastChange;
  private double power;
  private long seen;

  SignErrorLms(int order, double rate) {
    if (order < 1 || order > 64) {
      throw new IllegalArgumentException("order must be in [1, 64]: " + order);
    }
    if (!(rate > 0 && rate < 1)) {
      throw new IllegalArgumentException("rate must be in (0, 1): " + rate);
    }
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
    if (seen > order + 1) {
      int h = head;
      double error = change - forecastChange;
      double energy = 0;
      for (int i = 0; i < order; i++) {
        energy += d[h + i] * d[h + i];
      }
      power += POWER_GAIN * (change * change - power);
      energy += order * power;
      if (energy > 0 && error != 0) {
        double step = Math.copySign(rate, error) / Math.sqrt(energy);
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
    forecastChange = Double.isFinite(next) ? Math.max(-largest, Math.min(largest, next)) : 0;
  }

  @Override
  public double update(double value) {
    observe(value);
    return predict();
  }

  @Override
  public double predict() {
    return last + forecastChange;
  }

  @Override
  public String name() {
    return String.format(Locale.ROOT, "sign-lms-%d-%.3f", weights.length, rate);
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(8 + 4 + 4 + 4 + 8 + 8 + 8 + 8)
        + StateBytes.doubles(weights.length)
        + StateBytes.doubles(2 * weights.length);
  }
}
