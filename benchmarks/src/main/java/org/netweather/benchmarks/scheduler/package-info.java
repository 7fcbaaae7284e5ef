/**
 * Scheduler plugin figures: each plugin over a synthetic 1 000-host input, timed against the cost
 * of reading that input once, measured in the same run.
 */
package org.netweather.benchmarks.scheduler;
