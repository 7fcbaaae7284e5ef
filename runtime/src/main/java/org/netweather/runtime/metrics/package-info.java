/**
 * Prometheus metrics every daemon shares: gRPC calls by method and status ({@link
 * org.netweather.runtime.metrics.RpcMetrics}), gauges read from running daemons ({@link
 * org.netweather.runtime.metrics.LiveGauge}) and the HTTP endpoint a Prometheus server scrapes
 * ({@link org.netweather.runtime.metrics.MetricsEndpoint}).
 */
package org.netweather.runtime.metrics;
