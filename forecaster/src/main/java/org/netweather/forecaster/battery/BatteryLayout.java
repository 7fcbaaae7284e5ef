package org.netweather.forecaster.battery;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link Battery} holds: its members, which of them form the faithful NWS battery, and how
 * long the others wait before they may be selected. Immutable; one layout serves every series.
 *
 * <pre>{@code
 * BatteryLayout layout = BatteryLayout.standard();
 * Battery battery = layout.newBattery();
 * long bytes = layout.stateBytesPerSeries();
 * }</pre>
 */
public final class BatteryLayout {
  /**
   * Measurements a member beyond the faithful 18 must see before it may be selected: the longest
   * NWS error window, so that its first windowed record is complete.
   */
  public static final int DEFAULT_BURN_IN = 100;

  /** Window lengths of the NWS windowed selectors (docs/forecasting.md). */
  static final int[] NWS_WINDOWS = {1, 5, 10, 20, 30, 50, 100};

  private final PredictorRegistry registry;
  private final List<String> members;
  private final int faithfulCount;
  private final int burnIn;

  private BatteryLayout(
      PredictorRegistry registry, List<String> faithful, List<String> extended, int burnIn) {
    if (faithful.isEmpty()) {
      throw new IllegalArgumentException("a battery needs at least one faithful member");
    }
    if (burnIn < 0) {
      throw new IllegalArgumentException("burn-in must not be negative: " + burnIn);
    }
    List<String> all = new ArrayList<>(faithful);
    all.addAll(extended);
    if (all.stream().distinct().count() != all.size()) {
      throw new IllegalArgumentException("duplicate member in " + all);
    }
    for (String name : all) {
      registry.factory(name); // fail now, naming the member, rather than once per series
    }
    this.registry = registry;
    this.members = List.copyOf(all);
    this.faithfulCount = faithful.size();
    this.burnIn = burnIn;
  }

  /** The 18 NWS primaries alone: the served forecast is NWS's own "Total" choice. */
  public static BatteryLayout faithful() {
    return of(PredictorRegistry.standard(), PredictorRegistry.FAITHFUL, List.of());
  }

  /** The 18 NWS primaries plus {@link PredictorRegistry#EXTENDED}: what the daemon serves. */
  public static BatteryLayout standard() {
    return of(PredictorRegistry.standard(), PredictorRegistry.FAITHFUL, PredictorRegistry.EXTENDED);
  }

  /**
   * A layout over registered predictors: {@code faithful} ones play the NWS primaries and may be
   * selected from the first measurement; {@code extended} ones join after {@link #DEFAULT_BURN_IN}
   * measurements.
   */
  public static BatteryLayout of(
      PredictorRegistry registry, List<String> faithful, List<String> extended) {
    return new BatteryLayout(registry, faithful, extended, DEFAULT_BURN_IN);
  }

  /** This layout with another burn-in. */
  public BatteryLayout withBurnIn(int measurements) {
    return new BatteryLayout(
        registry,
        members.subList(0, faithfulCount),
        members.subList(faithfulCount, members.size()),
        measurements);
  }

  /** Member names: the faithful ones first, then the extended ones. */
  public List<String> members() {
    return members;
  }

  public int faithfulCount() {
    return faithfulCount;
  }

  public int burnIn() {
    return burnIn;
  }

  /**
   * Measurements a fresh battery needs before every part of it is formed: one to forecast from,
   * then enough scored steps to fill the longest NWS error window (100) and to end the burn-in of
   * the extended members. The longest member window (51 for the trimmed mean and the adaptive
   * median) is shorter; the whole-history records (running mean, cumulative errors) never fill, and
   * more history only refines them, as it does the AR statistics (forgetting factor 0.999, a memory
   * of about 1 000 steps: estimated from 100 steps they are usable but noisy, and the AR members
   * are chosen only where they beat the others anyway). A restart costs this many battery updates
   * per series: 101 x 470 000 series is about 48 million. A follower warming a battery up from
   * stored history asks for this many points per series, not the whole history.
   */
  public int warmUpPoints() {
    return Math.max(NWS_WINDOWS[NWS_WINDOWS.length - 1], burnIn) + 1;
  }

  /** A battery for one series. */
  public Battery newBattery() {
    return new Battery(this, registry.create(members).toArray(new Predictor[0]));
  }

  /** Estimated heap bytes of one series' battery (the same for every series). */
  public long stateBytesPerSeries() {
    return newBattery().stateBytes();
  }
}
