package org.netweather.sensor;

import java.util.Map;
import java.util.Objects;

/**
 * One value produced by a skill, in the unit of its resource.
 *
 * @param value the measured value; finite
 * @param unit the unit of the resource ({@code fraction}, {@code MiB}, {@code Mbit/s}, {@code ms},
 *     {@code fraction per MB/s})
 * @param bytesSpent bytes the experiment put on the network (0 for host skills)
 * @param extras named by-products that are not the value itself, such as the standard error of an
 *     interference rate; empty for most skills
 */
public record Reading(double value, String unit, long bytesSpent, Map<String, Double> extras) {

  public Reading {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("reading must be finite, was " + value);
    }
    Objects.requireNonNull(unit, "unit");
    if (bytesSpent < 0) {
      throw new IllegalArgumentException("bytesSpent must be >= 0, was " + bytesSpent);
    }
    extras = Map.copyOf(extras);
  }

  /** A reading without network cost or extras. */
  public static Reading of(double value, String unit) {
    return new Reading(value, unit, 0, Map.of());
  }

  /** A reading of a network experiment that spent {@code bytesSpent} bytes. */
  public static Reading of(double value, String unit, long bytesSpent) {
    return new Reading(value, unit, bytesSpent, Map.of());
  }
}
