package org.netweather.forecaster.battery;

import java.util.Arrays;
import java.util.Locale;

/**
 * Forecasts with an AR(p) model plus intercept whose coefficients are refitted after every
 * measurement by exponentially weighted recursive least squares.
 *
 * <p>Dinda and O'Hallaron ("Host load prediction using linear models", Cluster Computing 3(4),
 * 2000) found AR(16) the best cost/benefit model for host load, fitted in batch. Here the fit is
 * online: standard RLS with forgetting factor lambda (Haykin, "Adaptive Filter Theory", 4th ed.,
 * §9; Ljung and Söderström 1983), regressor [1, z(t), ..., z(t-p+1)]:
 *
 * <pre>
 *   u = P phi;  k = u / (lambda + phi . u);  w += k (z - w . phi);  P = (P - k u') / lambda
 * </pre>
 *
 * <p>Safeguards, each for a failure seen on real traces:
 *
 * <ol>
 *   <li>Values are centred and scaled by the mean and spread of the first {@code warmup}
 *       measurements, so the prior P = 100 I means the same whatever the units (bytes or %). Until
 *       then the forecast is the last value.
 *   <li>With forgetting, P grows without bound along directions the data stop exciting (a series
 *       that sits still); its trace is capped, which keeps it from overflowing.
 *   <li>The forecast is clamped to the range of the lags widened by that range on each side, so a
 *       briefly unstable fit cannot forecast absurd values.
 * </ol>
 *
 * <p>Cost O(p^2) per measurement, about 2 (p+1)^2 multiply-adds; P is symmetric, so only its upper
 * triangle is stored and updated ((p+1)(p+2)/2 doubles: 153 for AR(16)).
 */
final class AutoRegressive implements Predictor {
  /** Forgetting factor of the standard members: an effective memory of about 1000 steps. */
  static final double DEFAULT_FORGETTING = 0.999;

  private static final double PRIOR = 100;
  private static final double MAX_MEAN_DIAGONAL = 1e4;

  private final int order;
  private final int size; // order + 1 (intercept)
  private final double forgetting;
  private final int warmup;
  private final String name;
  private final double[] weights;
  private final double[] regressor; // [1, z(t), z(t-1), ...]
  private final double[] covariance; // size x size, row-major
  private final double[] gain;
  private final double invForgetting;
  private double[] raw; // the first warmup values; dropped once the fit starts
  private double fitted; // w . phi in scaled units: the standing forecast before clamping
  private double offset;
  private double scale = 1;
  private double invScale = 1;
  private double last = Double.NaN;
  private double forecast = Double.NaN;
  private long seen;

  AutoRegressive(int order, double forgetting) {
    if (order < 1 || order > 32) {
      throw new IllegalArgumentException("order must be in [1, 32]: " + order);
    }
    if (!(forgetting > 0.9 && forgetting <= 1)) {
      throw new IllegalArgumentException("forgetting factor must be in (0.9, 1]: " + forgetting);
    }
    this.order = order;
    this.size = order + 1;
    this.forgetting = forgetting;
    this.warmup = Math.max(2 * order, 16);
    String suffix = forgetting == DEFAULT_FORGETTING ? "" : "-" + trimZeros(forgetting);
    this.name = "ar" + order + "-rls" + suffix;
    this.weights = new double[size];
    this.regressor = new double[size];
    this.covariance = new double[size * (size + 1) / 2];
    this.invForgetting = 1 / forgetting;
    this.gain = new double[size];
    this.raw = new double[warmup];
  }

  @Override
  public void observe(double value) {
    last = value;
    if (seen < warmup) {
      raw[(int) seen++] = value;
      forecast = value;
      if (seen == warmup) {
        start();
      }
      return;
    }
    seen++;
    double z = (value - offset) * invScale;
    rlsStep(z);
    for (int i = order; i > 1; i--) {
      regressor[i] = regressor[i - 1];
    }
    regressor[1] = z;
    forecast = clampedForecast();
  }

  @Override
  public double update(double value) {
    observe(value); // this class is final: both calls inline here
    return predict();
  }

  @Override
  public double predict() {
    return forecast;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(4 * 3 + 8 * 2 + 4 * 6 + 8 * 7)
        + 3 * StateBytes.doubles(size)
        + StateBytes.doubles(covariance.length)
        + (raw == null ? 0 : StateBytes.doubles(warmup));
  }

  private void start() {
    double mean = 0;
    for (double v : raw) {
      mean += v;
    }
    mean /= warmup;
    double spread = 0;
    for (double v : raw) {
      spread += Math.abs(v - mean);
    }
    spread /= warmup;
    offset = mean;
    scale = spread > 0 ? spread : Math.abs(mean) > 0 ? Math.abs(mean) : 1;
    invScale = 1 / scale;
    resetFit();
    regressor[0] = 1;
    for (int lag = 0; lag < order; lag++) {
      regressor[1 + lag] = (raw[warmup - 1 - lag] - offset) * invScale;
    }
    raw = null;
    forecast = clampedForecast();
  }

  private void resetFit() {
    Arrays.fill(weights, 0);
    Arrays.fill(covariance, 0);
    for (int i = 0, k = 0; i < size; k += size - i, i++) {
      covariance[k] = PRIOR; // diagonal entry (i, i) of the packed upper triangle
    }
  }

  private void rlsStep(double z) {
    int n = size;
    double[] p = covariance; // upper triangle of the symmetric P, packed row by row
    double[] phi = regressor;
    double[] u = gain;
    // u = P phi, reading each stored entry once for both of its positions.
    for (int i = 0; i < n; i++) {
      u[i] = 0;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
      double phiI = phi[i];
      double s = p[k++] * phiI;
      for (int j = i + 1; j < n; j++) {
        double pij = p[k++];
        s += pij * phi[j];
        u[j] += pij * phiI;
      }
      u[i] += s;
    }
    double denominator = forgetting;
    for (int i = 0; i < n; i++) {
      denominator += phi[i] * u[i];
    }
    double error = z - fitted; // fitted = w . phi, computed with the last forecast
    double inverse = 1 / denominator;
    double trace = 0;
    // P = (P - u u' / denominator) / lambda; w += u * error / denominator.
    k = 0;
    for (int i = 0; i < n; i++) {
      double ki = u[i] * inverse;
      weights[i] += ki * error;
      double diagonal = (p[k] - ki * u[i]) * invForgetting;
      p[k++] = diagonal;
      trace += diagonal;
      for (int j = i + 1; j < n; j++) {
        p[k] = (p[k] - ki * u[j]) * invForgetting;
        k++;
      }
    }
    if (!(trace <= MAX_MEAN_DIAGONAL * n)) {
      if (Double.isFinite(trace) && trace > 0) {
        double shrink = MAX_MEAN_DIAGONAL * n / trace;
        for (int i = 0; i < p.length; i++) {
          p[i] *= shrink;
        }
      } else {
        resetFit(); // numerically broken: start the fit over
      }
    }
    if (!Double.isFinite(weights[0])) {
      resetFit();
    }
  }

  private double clampedForecast() {
    double[] phi = regressor;
    double z = weights[0] * phi[0];
    double lo = phi[1];
    double hi = phi[1];
    for (int i = 1; i < size; i++) {
      double v = phi[i];
      z += weights[i] * v;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    fitted = z;
    if (!Double.isFinite(z)) {
      fitted = 0;
      return last;
    }
    double range = hi - lo;
    return offset + scale * Math.max(lo - range, Math.min(hi + range, z));
  }

  private static String trimZeros(double x) {
    String s = String.format(Locale.ROOT, "%.4f", x);
    return s.replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
