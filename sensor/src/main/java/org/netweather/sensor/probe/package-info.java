/**
 * The probe transport between sensors, over Netty: a {@link
 * org.netweather.sensor.probe.ProbeServer} that echoes, sinks and sources bytes for allowed peers,
 * and a {@link org.netweather.sensor.probe.ProbeClient} that measures {@code tcp.latency}, {@code
 * tcp.connect} and {@code tcp.bandwidth} against it, and times pLogP messages over a {@link
 * org.netweather.sensor.probe.PLogPConnection}.
 *
 * <p>Every connection but a connect-time probe opens with a 16-byte {@link
 * org.netweather.sensor.probe.ProbeHello} that picks a mode; after it the stream carries raw bytes
 * (echoed, sunk or sourced), and a sink answers with 16-byte {@link
 * org.netweather.sensor.probe.SinkMark}s; in pLogP mode both ways carry {@link
 * org.netweather.sensor.probe.PLogPFrame}s. The bandwidth method is documented on {@link
 * org.netweather.sensor.probe.TrainRateEstimator}.
 */
package org.netweather.sensor.probe;
