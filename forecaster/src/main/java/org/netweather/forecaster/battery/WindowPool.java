package org.netweather.forecaster.battery;

/**
 * Hands out {@link SortedWindow}s by capacity so that predictors created together (the members
 * of one battery) share one window per capacity instead of each sorting its own copy.
 *
 * <p>Sharing is safe because every sharer feeds the same series in the same order and
 * {@link SortedWindow#offer} adds each measurement once. The predictor that asks first owns the
 * window and counts it in its {@link Predictor#stateBytes()}; later sharers do not.
 */
final class WindowPool {
  private static final int MAX_WINDOWS = 8;

  private final SortedWindow[] windows = new SortedWindow[MAX_WINDOWS];
  private int count;

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
}
