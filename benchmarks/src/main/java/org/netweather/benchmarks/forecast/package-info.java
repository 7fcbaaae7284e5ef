/**
 * JMH benchmarks of the forecasting library: the cost of one measurement through a whole battery at
 * 1, 1 000 and 100 000 live series, and the state each series holds.
 */
package org.netweather.benchmarks.forecast;
