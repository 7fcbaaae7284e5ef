/**
 * The memory-host daemon: durable storage of measurement series. Each series keeps its recent raw
 * points and an RRD4J archive of averages, minima and maxima; a write-ahead log makes every append
 * durable before it is acknowledged; watchers receive appends as they land.
 */
package org.netweather.memoryhost;
