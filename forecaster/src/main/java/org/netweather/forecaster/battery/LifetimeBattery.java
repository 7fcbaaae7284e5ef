package org.netweather.forecaster.battery;

/**
 * Forecasts the average of a series over the next epoch of fixed length, from the averages of past
 * epochs.
 *
 * <p>The NWS "lifetime" mode ({@code InitForcLife}; docs/forecasting.md): measurements are averaged
 * over epochs of the given lifetime and a battery forecasts the epoch mean, which answers "what
 * will the average be over the next T seconds" rather than "what will the next probe say". Epochs
 * are aligned on the first timestamp: epoch k covers [t0 + k*T, t0 + (k+1)*T). An epoch is fed to
 * the battery when a measurement arrives past its end; epochs with no measurement are skipped, not
 * filled. A timestamp earlier than the current epoch counts toward the current epoch (late arrivals
 * are not reordered). O(1) per measurement plus one battery update per closed epoch.
 *
 * <pre>{@code
 * LifetimeBattery fiveMinutes = new LifetimeBattery(BatteryLayout.standard(), 300_000);
 * fiveMinutes.observe(timestampMillis, value);
 * ForecastResult nextAverage = fiveMinutes.forecast(Criterion.MSE);
 * }</pre>
 */
public final class LifetimeBattery {
  private final Battery battery;
  private final long lifetime;
  private boolean started;
  private long epochStart;
  private double sum;
  private long inEpoch;

  /** A battery over epoch means; {@code lifetimeMillis} is the epoch length. */
  public LifetimeBattery(BatteryLayout layout, long lifetimeMillis) {
    if (lifetimeMillis <= 0) {
      throw new IllegalArgumentException("lifetime must be positive: " + lifetimeMillis);
    }
    this.battery = layout.newBattery();
    this.lifetime = lifetimeMillis;
  }

  /** Feeds one measurement taken at {@code timestampMillis}. */
  public void observe(long timestampMillis, double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("measurement must be finite: " + value);
    }
    if (!started) {
      started = true;
      epochStart = timestampMillis;
    } else if (timestampMillis - epochStart >= lifetime) {
      closeEpoch();
      epochStart += (timestampMillis - epochStart) / lifetime * lifetime;
    }
    sum += value;
    inEpoch++;
  }

  /** Forecast of the next complete epoch's mean, from the epochs closed so far. */
  public ForecastResult forecast(Criterion criterion) {
    return battery.forecast(criterion);
  }

  /** Epochs closed and fed to the battery. */
  public long epochs() {
    return battery.count();
  }

  /** Mean of the measurements in the epoch still open, NaN if it has none. */
  public double openEpochMean() {
    return inEpoch == 0 ? Double.NaN : sum / inEpoch;
  }

  /** The battery over epoch means. */
  public Battery battery() {
    return battery;
  }

  private void closeEpoch() {
    if (inEpoch > 0) {
      battery.observe(sum / inEpoch);
    }
    sum = 0;
    inEpoch = 0;
  }
}
