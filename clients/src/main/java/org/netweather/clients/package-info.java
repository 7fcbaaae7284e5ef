/**
 * {@link org.netweather.clients.NetWeatherClient}, the Java library over NetWeather's gRPC
 * services: it finds memory-hosts through the nameserver, always sets deadlines, and reports
 * failures as gRPC status.
 */
package org.netweather.clients;
