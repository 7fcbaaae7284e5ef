/**
 * What every NetWeather daemon shares: the gRPC server lifecycle ({@link DaemonServer}),
 * registration with the nameserver ({@link Registrar}), named thread pools, configuration
 * loading and the mapping of bad input to gRPC status.
 */
package org.netweather.runtime;
