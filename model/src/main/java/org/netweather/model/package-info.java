/**
 * Plain values every NetWeather module shares: series names, the known resources with their units
 * and ranges, and series patterns. No dependencies. The arithmetic shared by the sensor and the
 * schedulers lives in the subpackages {@code stats}, {@code interference} and {@code plogp}.
 */
package org.netweather.model;
