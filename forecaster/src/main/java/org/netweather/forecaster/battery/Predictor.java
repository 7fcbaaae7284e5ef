package org.netweather.forecaster.battery;

/**
 * A one-step-ahead forecaster of a single series: it sees measurements one at a time and says what
 * the next one will be.
 *
 * <p>Implementations keep bounded state, do not allocate in {@link #observe} or {@link #predict},
 * and cost O(1) or a small bounded amount per measurement (each class states its cost). They are
 * not thread-safe: a {@link Battery} owns its members and feeds them from one thread.
 *
 * <pre>{@code
 * Predictor p = PredictorRegistry.standard().create("exp-smooth-0.30");
 * p.observe(4.0);
 * p.observe(5.0);
 * double next = p.predict(); // 4.3
 * }</pre>
 */
public interface Predictor {

  /** Takes the next measurement of the series; {@code value} is finite. */
  void observe(double value);

  /**
   * The forecast of the next measurement given everything observed so far, or {@code NaN} before
   * the first measurement.
   */
  double predict();

  /**
   * Takes the next measurement and returns the forecast of the one after it: {@link #observe} then
   * {@link #predict}, in one call, which is how a battery drives its members (one megamorphic call
   * per member and measurement instead of two).
   */
  default double update(double value) {
    observe(value);
    return predict();
  }

  /** The registered name, e.g. {@code "median-31"}. */
  String name();

  /**
   * An estimate of the heap bytes this predictor holds (object headers and arrays included, state
   * shared with other members counted by the owner only).
   */
  long stateBytes();
}
