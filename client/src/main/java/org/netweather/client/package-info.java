/**
 * {@link org.netweather.client.NetWeatherClient}, the Java library over NetWeather's gRPC services
 * for schedulers, tools and daemons that talk to each other: it finds every daemon through the
 * nameserver, sets a deadline on every call, retries only what the API documents as safe to retry,
 * and reports failures as gRPC status. No command-line code lives here.
 */
package org.netweather.client;
