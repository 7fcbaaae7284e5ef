/**
 * The forecasting library: one-step-ahead predictors, the original Network Weather Service battery
 * built from them, and members beyond it. Pure computation: no I/O, no threads, no clock.
 *
 * <p>Entry points:
 *
 * <ul>
 *   <li>{@link org.netweather.forecaster.battery.BatteryLayout} says which predictors a battery
 *       holds ({@code standard()}: the 18 NWS primaries plus AR, Holt and NLMS members; {@code
 *       faithful()}: the 18 alone) and makes a {@link org.netweather.forecaster.battery.Battery}
 *       per series;
 *   <li>{@link org.netweather.forecaster.battery.Battery#observe} takes each measurement and {@link
 *       org.netweather.forecaster.battery.Battery#forecast} returns a {@link
 *       org.netweather.forecaster.battery.ForecastResult} (value, MSE, MAE, method, count, interval
 *       at a requested coverage), served from the NWS hierarchies or the inverse-error combiners,
 *       whichever has done best lately; {@link org.netweather.forecaster.battery.Battery#horizon}
 *       forecasts the mean over the next k measurements;
 *   <li>{@link org.netweather.forecaster.battery.LifetimeBattery} forecasts epoch averages;
 *   <li>{@link org.netweather.forecaster.battery.PredictorRegistry} names every predictor.
 * </ul>
 *
 * <p>Sources: Wolski, Spring, Hayes, "The Network Weather Service", FGCS 15(5), 1999, and the NWS C
 * code as summarized in docs/forecasting.md and docs/forecasting.md; Dinda and O'Hallaron, Cluster
 * Computing 3(4), 2000 (AR); Levinson 1947 and Durbin 1960 (Yule-Walker solve); Holt 1957; Haykin,
 * "Adaptive Filter Theory" (RLS, NLMS); Bates and Granger 1969 (inverse-error combination); Gibbs
 * and Candès, NeurIPS 2021 (adaptive conformal intervals).
 */
package org.netweather.forecaster.battery;
