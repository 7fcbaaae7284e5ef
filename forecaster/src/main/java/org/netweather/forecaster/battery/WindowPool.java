package org.netweather.forecaster.battery;

/**
 * Hands out {@link SortedWindow}s by capacity, and an {@link Autocovariances} estimator, so that
 * predictors created together (the members of one battery) share one window per capacity and one
 * set of AR statistics instead of each keeping its own copy.
 *
 * <p>Sharing is safe because every sharer feeds the same series in the same order and {@link
 * SortedWindow#offer} adds each measurement once. The predictor that asks first owns the window and
 * counts it in its {@link Predictor#stateBytes()}; later sharers do not.
 */
final class WindowPool {
  private static final int MAX_WINDOWS = 8;

  private final SortedWindow[] windows = new SortedWindow[MAX_WINDOWS];
  private int count;
  private Autocovariances autocovariances;

  /** Whether a window of this capacity has been handed out already. */
  boolean has(int capacity) {
    for (int i = 0; i < count; i++) {
      if (windows[i].capacity() == capacity) {
        return true;
      }
    }
    return false;
  }

  /** The window of this capacity, created on first request. */
  SortedWindow window(int capacity) {
    for (int i = 0; i < count; i++) {
      if (windows[i].capacity() == capacity) {
        return windows[i];
      }
    }
    SortedWindow window = new SortedWindow(capacity);
    if (count < MAX_WINDOWS) { // unusual layouts beyond that just stop sharing
      windows[count++] = window;
    }
    return window;
  }

  /** Whether {@link #autocovariances} would return an existing estimator. */
  boolean hasAutocovariances(double forgetting) {
    return autocovariances != null && autocovariances.forgetting() == forgetting;
  }

  /**
   * The autocovariance estimator with this forgetting factor, tracking at least {@code lag} lags,
   * created on first request (one per pool; another forgetting factor gets its own).
   */
  Autocovariances autocovariances(double forgetting, int lag) {
    if (hasAutocovariances(forgetting)) {
      autocovariances.ensureLag(lag);
      return autocovariances;
    }
    Autocovariances created = new Autocovariances(forgetting, lag);
    if (autocovariances == null) {
      autocovariances = created;
    }
    return created;
  }
}
