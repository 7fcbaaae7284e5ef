package org.netweather.forecaster.battery;

import java.util.Locale;

/**
 * Exponential smoothing whose innovations are clipped at {@value #CLIP} times their running mean
 * absolute size: p(t+1) = p(t) + g * clip(x(t) - p(t)), a Huber-type robust level.
 *
 * <p>Plain exponential smoothing takes a share of every spike into its level and keeps it for many
 * steps; clipping the innovation, as in robust exponential smoothing (Gelper, Fried, Croux, "Robust
 * Forecasting with Exponential and Holt-Winters Smoothing", Journal of Forecasting 29(3), 2010,
 * after Huber's ψ-function), bounds what one measurement can move the level, while a lasting shift
 * still gets through in a few steps because the scale grows with it. O(1) per measurement.
 */
final class HuberLevel implements Predictor {
  static final double CLIP = 2.0;
  private static final double SCALE_GAIN = 0.05;

  private final double gain;
  private double level = Double.NaN;
  private double scale; // running mean |x - p|

  HuberLevel(double gain) {
    if (!(gain > 0 && gain <= 1)) {
      throw new IllegalArgumentException("gain must be in (0, 1]: " + gain);
    }
    this.gain = gain;
  }

  @Override
  public void observe(double value) {
    if (Double.isNaN(level)) {
      level = value;
      return;
    }
    double innovation = value - level;
    double size = Math.abs(innovation);
    double limit = CLIP * scale;
    double clipped = scale > 0 ? Math.max(-limit, Math.min(limit, innovation)) : innovation;
    level += gain * clipped;
    scale = scale == 0 ? size : scale + SCALE_GAIN * (size - scale);
  }

  @Override
  public double update(double value) {
    observe(value);
    return predict();
  }

  @Override
  public double predict() {
    return level;
  }

  @Override
  public String name() {
    return String.format(Locale.ROOT, "huber-level-%.2f", gain);
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(8 + 8 + 8);
  }
}
