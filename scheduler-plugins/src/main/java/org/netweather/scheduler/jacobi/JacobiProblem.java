package org.netweather.scheduler.jacobi;

import org.netweather.scheduler.frame.ResourceSnapshot;

/**
 * The Jacobi2D instance to partition.
 *
 * @param size N, the grid is N×N points and every border has N elements
 * @param bytesPerElement bytes of one border element sent to a neighbour
 * @param bytesPerPoint resident bytes per grid point (old and new grid), for the memory filter
 */
public record JacobiProblem(int size, double bytesPerElement, double bytesPerPoint) {
  public static final double DEFAULT_BYTES_PER_ELEMENT = 8;
  public static final double DEFAULT_BYTES_PER_POINT = 16;

  public JacobiProblem {
    if (size < 1) {
      throw new IllegalArgumentException("size: the grid needs at least one point, got " + size);
    }
    if (!(bytesPerElement >= 0) || !(bytesPerPoint > 0)) {
      throw new IllegalArgumentException("bytesPerElement must be >= 0 and bytesPerPoint > 0");
    }
  }

  /** N×N with the default element and point sizes. */
  public static JacobiProblem ofSize(int size) {
    return new JacobiProblem(size, DEFAULT_BYTES_PER_ELEMENT, DEFAULT_BYTES_PER_POINT);
  }

  /**
   * The problem a snapshot describes in its parameters ({@code size}, {@code bytesPerElement},
   * {@code bytesPerPoint}); {@code size}, when not null, overrides the snapshot's.
   */
  public static JacobiProblem from(ResourceSnapshot snapshot, Integer size) {
    double n = size != null ? size : snapshot.parameter("size", Double.NaN);
    if (Double.isNaN(n)) {
      throw new IllegalArgumentException(
          "no problem size: give --size or a snapshot parameter " + "'size'");
    }
    if (n != Math.rint(n) || n > 1_000_000_000) {
      throw new IllegalArgumentException("size: " + n + " is not a whole number of points");
    }
    return new JacobiProblem(
        (int) n,
        snapshot.parameter("bytesPerElement", DEFAULT_BYTES_PER_ELEMENT),
        snapshot.parameter("bytesPerPoint", DEFAULT_BYTES_PER_POINT));
  }

  /** N², the points to share out. */
  public double area() {
    return (double) size * size;
  }
}
