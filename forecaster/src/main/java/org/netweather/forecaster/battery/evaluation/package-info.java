/**
 * Offline evaluation of the battery on trace files: reading {@code timestamp,value} CSVs and
 * replaying them one step ahead, with every error reported relative to the last-value predictor.
 * The protocol is the one of docs/forecasting.md.
 */
package org.netweather.forecaster.battery.evaluation;
