/**
 * Benchmarks: JMH micro-benchmarks and end-to-end programs that print figures beside a baseline
 * measured in the same run. Build and run with {@code benchmarks/run}. Figures are never asserted:
 * these machines are shared and noisy.
 */
package org.netweather.benchmarks;
