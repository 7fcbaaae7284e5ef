package org.netweather.scheduler.swap;

/**
 * FPH's knobs (docs/schedulers/swapping.md, "Our policy"): error margin z, relative hysteresis θ,
 * payback factor κ and cooldown factor cd. The defaults are the moderate ones; {@link
 * #aggressive()} is the setting that closes most of the gap to naive_corr on noise-free discrete
 * load.
 */
public record FphParameters(double z, double theta, double kappa, double cooldown) {
  public FphParameters {
    if (z < 0 || theta < 0 || kappa < 0 || cooldown < 0) {
      throw new IllegalArgumentException("FPH parameters must be >= 0");
    }
  }

  public static FphParameters defaults() {
    return new FphParameters(0.5, 0.03, 1.2, 2);
  }

  public static FphParameters aggressive() {
    return new FphParameters(0, 0.02, 1.0, 1);
  }
}
