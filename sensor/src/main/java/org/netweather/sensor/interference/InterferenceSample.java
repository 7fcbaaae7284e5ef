package org.netweather.sensor.interference;

/**
 * One averaging interval of an interference experiment.
 *
 * @param transferMBps transfer rate during the interval, in MB/s (10^6 bytes per second)
 * @param computeRate compute tasks finished per second during the interval
 */
public record InterferenceSample(double transferMBps, double computeRate) {}
