package org.netweather.forecaster.battery;

/**
 * The last {@value #CAPACITY} measurements a battery took, kept so that the mean over a horizon of
 * k steps can be forecast on request from the series aggregated into blocks of k.
 *
 * <p>Why aggregate on request rather than forecast k steps ahead directly: the members forecast one
 * step, and iterating them k times compounds their errors, while the NWS "lifetime" mode (Wolski,
 * Spring, Hayes, "The Network Weather Service", FGCS 15(5-6), 1999) shows that a battery run over
 * epoch means forecasts an epoch mean well; a periodic series whose period divides k becomes flat,
 * a ramp stays a ramp that the trend members follow. A battery per horizon would cost its whole
 * state per series and horizon; a ring of recent values costs {@value #CAPACITY} floats, and a
 * request runs a fresh battery over at most {@value #CAPACITY}/k block means. Floats: 24 bits of
 * mantissa are far below any series' forecast error. Not thread-safe, like the battery.
 */
final class MeanHistory {
  static final int CAPACITY = 1024;

  private final float[] values = new float[CAPACITY];
  private long count;

  void add(double value) {
    values[(int) (count % CAPACITY)] = (float) value;
    count++;
  }

  /** Complete blocks of {@code steps} values that end at the newest value. */
  int blocks(int steps) {
    return (int) (Math.min(count, CAPACITY) / steps);
  }

  /** A fresh battery of {@code layout} fed the means of the last {@link #blocks} blocks. */
  Battery aggregate(BatteryLayout layout, int steps) {
    int blocks = blocks(steps);
    Battery b = layout.newBattery();
    long first = count - (long) blocks * steps;
    for (int block = 0; block < blocks; block++) {
      double sum = 0;
      long from = first + (long) block * steps;
      for (int i = 0; i < steps; i++) {
        sum += values[(int) ((from + i) % CAPACITY)];
      }
      b.observe(sum / steps);
    }
    return b;
  }

  long stateBytes() {
    return StateBytes.object(4 + 8) + StateBytes.floats(CAPACITY);
  }
}
