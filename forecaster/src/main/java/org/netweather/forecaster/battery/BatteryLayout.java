package org.netweather.forecaster.battery;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link Battery} holds: its members, which of them form the faithful NWS battery, and
 * how long new members wait before they may be selected. Immutable; one layout serves every
 * series.
 *
 * <pre>{@code
 * BatteryLayout layout = BatteryLayout.standard();
 * Battery battery = layout.newBattery();
 * }</pre>
 */
public final class BatteryLayout {
  /** Measurements a member beyond the faithful 18 must see before it may be selected. */
  public static final int DEFAULT_BURN_IN = 100;

  /** Window lengths of the NWS windowed selectors (forecasting.md §0). */
  static final int[] NWS_WINDOWS = {1, 5, 10, 20, 30, 50, 100};

  private final PredictorRegistry registry;
  private final List<String> members;
  private final int faithfulCount;
  private final int burnIn;
  final int[] servedWindows; // windows of the served level's ledger
  final int servedRule; // index into servedWindows, or WHOLE_HISTORY
  final boolean servedIncludesFaithful;
  double servedMargin;
  int[] servedCandidates = java.util.stream.IntStream.range(0, 18).toArray();

  BatteryLayout(
      PredictorRegistry registry,
      List<String> faithful,
      List<String> extended,
      int burnIn,
      int[] servedWindows,
      int servedRule,
      boolean servedIncludesFaithful) {
    if (faithful.isEmpty()) {
      throw new IllegalArgumentException("a battery needs at least one faithful member");
    }
    if (burnIn < 0) {
      throw new IllegalArgumentException("burn-in must not be negative: " + burnIn);
    }
    List<String> all = new ArrayList<>(faithful);
    all.addAll(extended);
    for (String name : all) {
      registry.factory(name); // fail now, naming the member, rather than per series
    }
    this.registry = registry;
    this.members = List.copyOf(all);
    this.faithfulCount = faithful.size();
    this.burnIn = burnIn;
    this.servedWindows = servedWindows.clone();
    this.servedRule = servedRule;
    this.servedIncludesFaithful = servedIncludesFaithful;
  }

  /** The 18 NWS primaries alone: the served forecast is NWS's own "Total" choice. */
  public static BatteryLayout faithful() {
    return of(PredictorRegistry.standard(), PredictorRegistry.FAITHFUL, List.of());
  }

  /** The 18 NWS primaries plus {@link PredictorRegistry#EXTENDED}. */
  public static BatteryLayout standard() {
    return of(PredictorRegistry.standard(), PredictorRegistry.FAITHFUL, PredictorRegistry.EXTENDED);
  }

  /**
   * A layout over any registered predictors; {@code faithful} play the NWS primaries (selected
   * from the first measurement), {@code extended} join selection after the default burn-in.
   */
  public static BatteryLayout of(
      PredictorRegistry registry, List<String> faithful, List<String> extended) {
    return new BatteryLayout(
        registry, faithful, extended, DEFAULT_BURN_IN, new int[] {50}, 0, true);
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

  /** A battery for one series. */
  public Battery newBattery() {
    return new Battery(this, registry.create(members).toArray(new Predictor[0]));
  }

  BatteryLayout withServed(int[] windows, int rule, boolean includesFaithful, int burnIn) {
    return new BatteryLayout(
        registry,
        members.subList(0, faithfulCount),
        members.subList(faithfulCount, members.size()),
        burnIn,
        windows,
        rule,
        includesFaithful);
  }
}
