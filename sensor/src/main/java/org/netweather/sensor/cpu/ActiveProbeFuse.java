package org.netweather.sensor.cpu;

/**
 * Decides when the next active CPU probe is due: soon when passive readings move, rarely when they
 * are still.
 *
 * <pre>
 * The original's "fuse and burn" (docs/measurement.md, "CPU availability", hybridCpu.c):
 *
 *   - the fuse starts at 0, so the first check probes; a probe relights it to MAX_FUSE = 1000;
 *   - each passive check burns `burn` = MAX_FUSE / activeEvery, so a probe follows every
 *     activeEvery checks when nothing happens;
 *   - a check whose passive reading moved by >= 0.15 ("wild") burns twice as much, one that moved
 *     by <= 0.01 ("tame") half as much;
 *   - after a probe, `burn` itself doubles if the passive error (active - passive) changed by
 *     >= 0.15 since the previous probe and halves if it changed by <= 0.01.
 * </pre>
 *
 * <p>Two bounds are ours: {@code burn} stays within a factor of 4 of its nominal value, so a long
 * calm never stops probing altogether, and at least {@code minChecksBetween} checks separate two
 * probes, which caps the CPU the probes themselves cost (see {@link CpuAvailabilityOptions}).
 *
 * <p>Not thread-safe; the owning skill serialises calls.
 */
public final class ActiveProbeFuse {

  static final double MAX_FUSE = 1000;
  static final double WILD = 0.15;
  static final double TAME = 0.01;
  private static final double BURN_RANGE = 4;

  private final double nominalBurn;
  private final int minChecksBetween;
  private double fuse;
  private double burn;
  private int checksSinceProbe;
  private boolean probedOnce;

  /**
   * @param activeEvery nominal number of checks between probes (>= 1)
   * @param minChecksBetween fewest checks between two probes (>= 1)
   */
  public ActiveProbeFuse(int activeEvery, int minChecksBetween) {
    if (activeEvery < 1 || minChecksBetween < 1) {
      throw new IllegalArgumentException("activeEvery and minChecksBetween must be >= 1");
    }
    this.nominalBurn = MAX_FUSE / activeEvery;
    this.minChecksBetween = minChecksBetween;
    this.burn = nominalBurn;
  }

  /**
   * Burns the fuse for one passive check whose reading moved by {@code passiveMove} (absolute)
   * since the previous check, and says whether an active probe is due now.
   */
  public boolean onCheck(double passiveMove) {
    checksSinceProbe++;
    double factor = 1;
    if (passiveMove >= WILD) {
      factor = 2;
    } else if (passiveMove <= TAME) {
      factor = 0.5;
    }
    fuse -= burn * factor;
    return fuse <= 0 && (!probedOnce || checksSinceProbe >= minChecksBetween);
  }

  /**
   * Relights the fuse after a probe; {@code errorChange} is how much the passive error (active
   * minus passive) moved since the previous probe, or NaN for the first probe.
   */
  public void onProbe(double errorChange) {
    if (!Double.isNaN(errorChange)) {
      double change = Math.abs(errorChange);
      if (change >= WILD) {
        burn *= 2;
      } else if (change <= TAME) {
        burn /= 2;
      }
      burn = Math.max(nominalBurn / BURN_RANGE, Math.min(nominalBurn * BURN_RANGE, burn));
    }
    fuse = MAX_FUSE;
    checksSinceProbe = 0;
    probedOnce = true;
  }

  /** Current burn per check, for status pages and tests. */
  public double burn() {
    return burn;
  }
}
