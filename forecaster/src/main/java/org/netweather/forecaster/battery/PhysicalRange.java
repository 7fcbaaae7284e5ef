package org.netweather.forecaster.battery;

import org.netweather.model.Resource;

/**
 * The values a series can physically take, from its resource in the catalogue ({@link Resource}):
 * CPU availability is a fraction in [0, 1], bandwidth and latency are never negative. A forecast
 * and its interval are clipped to it before anyone sees them, wherever they are shown (the
 * forecaster's answers, {@code nws forecast --file}, {@code nws plot}, the dashboard).
 *
 * <p>Why clipping is right: the calibrated interval is symmetric about the forecast, so near a
 * bound it reaches past it (a CPU band to 1.15); every measurement lies inside the range, so the
 * clipped interval holds exactly the measurements the unclipped one held, and coverage is unchanged
 * while the width shrinks to what is possible. The same holds for the value: the nearest valid
 * value is never farther from any valid measurement than the value itself.
 */
public final class PhysicalRange {
  /** No known bounds: every finite value is possible (user series, traces of unknown resource). */
  public static final PhysicalRange UNBOUNDED =
      new PhysicalRange("", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);

  private final String resource;
  private final double min;
  private final double max;

  private PhysicalRange(String resource, double min, double max) {
    this.resource = resource;
    this.min = min;
    this.max = max;
  }

  /** The range of a known resource. */
  public static PhysicalRange of(Resource r) {
    return new PhysicalRange(r.id(), r.min(), r.max());
  }

  /**
   * The range of a series ({@code cpu.availability:alpha}) or resource name ({@code
   * cpu.availability}); {@link #UNBOUNDED} for anything the catalogue does not know.
   */
  public static PhysicalRange ofName(String seriesOrResource) {
    int colon = seriesOrResource.indexOf(':');
    String id = colon < 0 ? seriesOrResource : seriesOrResource.substring(0, colon);
    return Resource.of(id).map(PhysicalRange::of).orElse(UNBOUNDED);
  }

  /** The resource the range comes from, or "" for {@link #UNBOUNDED}. */
  public String resource() {
    return resource;
  }

  public double min() {
    return min;
  }

  public double max() {
    return max;
  }

  /** The nearest value within the range; NaN stays NaN. */
  public double clip(double v) {
    return v < min ? min : v > max ? max : v;
  }

  /**
   * {@code r} with its value and interval clipped to the range; its errors are left as they are.
   */
  public ForecastResult clip(ForecastResult r) {
    if (this == UNBOUNDED) {
      return r;
    }
    return new ForecastResult(
        clip(r.value()),
        r.mse(),
        r.mae(),
        r.method(),
        r.count(),
        clip(r.lower()),
        clip(r.upper()),
        r.criterion(),
        r.coverage());
  }

  @Override
  public String toString() {
    return this == UNBOUNDED ? "unbounded" : resource + " [" + min + ", " + max + "]";
  }
}
