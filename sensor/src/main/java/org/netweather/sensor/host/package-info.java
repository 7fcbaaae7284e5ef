/**
 * Where the host's own numbers come from: {@link org.netweather.sensor.host.HostMetrics} is the
 * small interface the skills read, {@link org.netweather.sensor.host.OshiHostMetrics} the only
 * class in the sensor that imports OSHI.
 */
package org.netweather.sensor.host;
