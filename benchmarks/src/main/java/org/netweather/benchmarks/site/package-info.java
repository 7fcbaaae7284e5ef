/**
 * The site benchmark: a simulated site of N hosts' sensors against real daemon processes, with
 * fill, real-rate and restart phases and an exactly-once check at the end. Start at {@link
 * org.netweather.benchmarks.site.SiteBenchmark}.
 */
package org.netweather.benchmarks.site;
