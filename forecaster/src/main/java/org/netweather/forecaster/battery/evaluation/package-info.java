/**
 * Offline evaluation of the battery on trace files: reading {@code timestamp,value} CSVs and
 * replaying them one step ahead, with every error reported relative to the last-value
 * predictor. The protocol is the one of {@code shared/specs/forecasting.md} §5.
 */
package org.netweather.forecaster.battery.evaluation;
