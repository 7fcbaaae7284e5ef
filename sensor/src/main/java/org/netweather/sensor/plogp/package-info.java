/**
 * pLogP parameter measurement (L, g(m), os(m), or(m)) after Kielmann, Bal and Verstoep's {@code
 * logp_mpi}, independent of any transport: {@link org.netweather.sensor.plogp.PLogPMeasurement}
 * drives a {@link org.netweather.sensor.plogp.PLogPChannel} ("send m bytes", "round trip") and
 * returns {@link org.netweather.sensor.plogp.PLogPParameters}. The collective models that consume
 * them live in {@code org.netweather.scheduler.cluster}.
 *
 * <p>On the sensor, {@link org.netweather.sensor.plogp.PLogPSkill} (skill {@code plogp}) runs it
 * over a probe connection in {@code PLOGP} mode ({@code org.netweather.sensor.probe.PLogPFrame})
 * and yields, in µs, {@code plogp.latency} and {@code plogp.gap.m<BYTES>}, {@code
 * plogp.os.m<BYTES>}, {@code plogp.or.m<BYTES>} for 0 and each power-of-two size: stored as {@code
 * RESOURCE:SRC->DST} by an activity with peers, or shown by {@code nws probe plogp --peer HOST:PORT
 * --json}.
 */
package org.netweather.sensor.plogp;
