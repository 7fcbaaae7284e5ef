package org.netweather.scheduler.swap;

/**
 * What a swap policy knows about one host at a decision epoch.
 *
 * @param loadAverage the latest 1-minute load average, which on an active host counts our own
 *     process (the root of the paper's hot potato)
 * @param forecast NWS forecast of the rate our process would get here: speed × availability,
 *     already self-load corrected (see {@link SelfLoad})
 * @param error the forecast's mean absolute error
 * @param persistence τ: how long (s) the host's current load level is expected to last
 */
public record HostView(
    String name,
    boolean active,
    double loadAverage,
    double forecast,
    double error,
    double persistence) {}
