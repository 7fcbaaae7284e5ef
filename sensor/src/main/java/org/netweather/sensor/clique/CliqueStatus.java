package org.netweather.sensor.clique;

import java.util.List;

/**
 * A snapshot of one clique as this host sees it.
 *
 * @param name clique name
 * @param state {@code WAITING} (another member holds the token), {@code HOLDING} or {@code STOPPED}
 * @param instance instance of the newest token seen, 0 if none
 * @param sequence sequence of the newest token seen
 * @param originator who generated that instance
 * @param members current member list
 * @param timeoutMs current regeneration time-out
 * @param turns turns this host has taken
 * @param regenerations tokens this host has regenerated
 * @param staleRejected stale tokens refused
 */
public record CliqueStatus(
    String name,
    String state,
    long instance,
    long sequence,
    String originator,
    List<String> members,
    long timeoutMs,
    long turns,
    long regenerations,
    long staleRejected) {}
