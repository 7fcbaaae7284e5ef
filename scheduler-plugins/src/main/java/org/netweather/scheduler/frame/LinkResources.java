package org.netweather.scheduler.frame;

/**
 * What one ordered host pair delivers.
 *
 * @param src the sending host
 * @param dst the receiving host
 * @param bandwidth bytes per second of a bulk transfer from src to dst
 * @param latency seconds of a small-message round trip
 */
public record LinkResources(String src, String dst, Estimate bandwidth, Estimate latency) {}
