package org.netweather.forecaster.battery;

import java.util.Arrays;
import java.util.Locale;

/**
 * Forecasts with an AR(p) model plus intercept whose coefficients are refitted after every
 * measurement by exponentially weighted recursive least squares.
 *
 * <p>Dinda and O'Hallaron ("Host load prediction using linear models", Cluster Computing 3(4),
 * 2000) found AR(16) the best cost/benefit model for host load, fitted in batch. Here the fit
 * is online: standard RLS with forgetting factor lambda (Haykin, "Adaptive Filter Theory", 4th
 * ed., §9; Ljung and Söderström 1983), regressor [1, z(t), ..., z(t-p+1)]:
 *
 * <pre>
 *   u = P phi;  k = u / (lambda + phi . u);  w += k (z - w . phi);  P = (P - k u') / lambda
 * </pre>
 *
 * <p>Safeguards, each for a failure seen on real traces:
 *
 * <ol>
 *   <li>Values are centred and scaled by the mean and spread of the first {@code warmup}
 *       measurements, so the prior P = 100 I means the same whatever the units (bytes or %).
 *       Until then the forecast is the last value.
 *   <li>With forgetting, P grows without bound along directions the data stop exciting (a
 *       series that sits still); its trace is capped, which keeps it from overflowing.
 *   <li>The forecast is clamped to the range of the lags widened by that range on each side, so
 *       a briefly unstable fit cannot forecast absurd values.
 * </ol>
 *
 * <p>Cost O(p^2) per measurement, about 2 (p+1)^2 multiply-adds; state O(p^2).
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
  private final double[] raw; // the first warmup values, then unused
  private double offset;
  private double scale = 1;
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
    this.name =
        "ar" + order + "-rls" + (forgetting == DEFAULT_FORGETTING ? "" : "-" + trimZeros(forgetting));
    this.weights = new double[size];
    this.regressor = new double[size];
    this.covariance = new double[size * size];
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
    double z = (value - offset) / scale;
    update(z);
    System.arraycopy(regressor, 1, regressor, 2, order - 1);
    regressor[1] = z;
    forecast = clampedForecast();
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
    return StateBytes.object(4 * 4 + 8 + 4 * 5 + 8 * 5)
        + 3 * StateBytes.doubles(size)
        + StateBytes.doubles(size * size)
        + StateBytes.doubles(warmup);
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
    resetFit();
    regressor[0] = 1;
    for (int lag = 0; lag < order; lag++) {
      regressor[1 + lag] = (raw[warmup - 1 - lag] - offset) / scale;
    }
    forecast = clampedForecast();
  }

  private void resetFit() {
    Arrays.fill(weights, 0);
    Arrays.fill(covariance, 0);
    for (int i = 0; i < size; i++) {
      covariance[i * size + i] = PRIOR;
    }
  }

  private void update(double z) {
    double[] p = covariance;
    double[] phi = regressor;
    double denominator = forgetting;
    for (int i = 0; i < size; i++) {
      double s = 0;
      int row = i * size;
      for (int j = 0; j < size; j++) {
        s += p[row + j] * phi[j];
      }
      gain[i] = s; // u = P phi for now
      denominator += phi[i] * s;
    }
    double error = z - dot(weights, phi);
    double inverse = 1 / denominator;
    double invForgetting = 1 / forgetting;
    double trace = 0;
    for (int i = 0; i < size; i++) {
      double ki = gain[i] * inverse;
      weights[i] += ki * error;
      int row = i * size;
      for (int j = 0; j < size; j++) {
        p[row + j] = (p[row + j] - ki * gain[j]) * invForgetting;
      }
      trace += p[row + i];
    }
    if (!(trace <= MAX_MEAN_DIAGONAL * size)) {
      if (Double.isFinite(trace) && trace > 0) {
        double shrink = MAX_MEAN_DIAGONAL * size / trace;
        for (int i = 0; i < p.length; i++) {
          p[i] *= shrink;
        }
      } else {
        resetFit(); // numerically broken: start the fit over
      }
    }
    if (!Double.isFinite(dot(weights, weights))) {
      resetFit();
    }
  }

  private double clampedForecast() {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    double z = 0;
    for (int i = 0; i < size; i++) {
      z += weights[i] * regressor[i];
    }
    for (int i = 1; i < size; i++) {
      lo = Math.min(lo, regressor[i]);
      hi = Math.max(hi, regressor[i]);
    }
    double range = hi - lo;
    if (!Double.isFinite(z)) {
      return last;
    }
    z = Math.max(lo - range, Math.min(hi + range, z));
    return offset + scale * z;
  }

  private static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static String trimZeros(double x) {
    String s = String.format(Locale.ROOT, "%.4f", x);
    return s.replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
