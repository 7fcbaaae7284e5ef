/**
 * The sensor's delivery spool: every measurement is written durably to local disk before anything
 * else happens to it and stays there until a memory-host acknowledges it, so a memory-host outage
 * loses nothing (docs/measurement.md, "Delivery").
 *
 * <p>{@link org.netweather.sensor.spool.Spool} documents the on-disk format, the policy when full
 * and recovery after a crash.
 */
package org.netweather.sensor.spool;
