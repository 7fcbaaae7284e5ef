/**
 * pLogP parameter measurement (L, g(m), os(m), or(m)) after Kielmann, Bal and Verstoep's
 * {@code logp_mpi}, independent of any transport: {@link
 * org.netweather.sensor.plogp.PLogPMeasurement} drives a {@link
 * org.netweather.sensor.plogp.PLogPChannel} ("send m bytes", "round trip") that the sensor's
 * probe transport implements, and returns {@link org.netweather.sensor.plogp.PLogPParameters}
 * to store as series ({@code plogp.g:SRC->DST} per size). The collective models that consume
 * them live in {@code org.netweather.scheduler.cluster}.
 */
package org.netweather.sensor.plogp;
