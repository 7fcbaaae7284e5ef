/**
 * How every daemon logs: one line per event with an ISO-8601 time and zone, as text or JSON lines,
 * to stderr and optionally to a rotated file, levels per component from configuration, and repeated
 * identical failures folded into a count.
 */
package org.netweather.runtime.logging;
