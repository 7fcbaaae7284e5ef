/**
 * What every NetWeather daemon shares: the one way to start and stop a daemon ({@link
 * org.netweather.runtime.Daemon}: gRPC server with health, reflection and metrics, registration
 * with the nameserver through a {@link org.netweather.runtime.Registrar}, channels to peers from
 * {@link org.netweather.runtime.Channels}, ordered shutdown), named thread pools, configuration
 * loading and the mapping of bad input to gRPC status. The durable record log is in {@link
 * org.netweather.runtime.recordlog}.
 */
package org.netweather.runtime;
