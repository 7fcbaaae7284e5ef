/**
 * Plain values every NetWeather module shares: series names, the known resources with their
 * units and ranges, and series patterns. No dependencies.
 */
package org.netweather.model;
