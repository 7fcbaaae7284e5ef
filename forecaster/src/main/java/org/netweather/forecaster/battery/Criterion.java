package org.netweather.forecaster.battery;

/** The error measure a forecast is selected by and reports: squared or absolute error. */
public enum Criterion {
  /** Mean squared error: selection follows the lowest cumulative squared error. */
  MSE,
  /** Mean absolute error: selection follows the lowest cumulative absolute error. */
  MAE;

  int metric() {
    return this == MSE ? ErrorLedger.SQUARED : ErrorLedger.ABSOLUTE;
  }
}
