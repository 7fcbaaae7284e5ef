/**
 * The forecaster daemon: follows memory-hosts' append streams into a predictor battery per series
 * ({@link org.netweather.forecaster.battery}) and serves forecasts one by one, in batches, and as a
 * stream.
 */
package org.netweather.forecaster;
