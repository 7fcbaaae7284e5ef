package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Selection, scoring order, burn-in and results of the battery. */
class BatteryTest {

  /** Always forecasts the same value: makes every error easy to work out by hand. */
  private static final class Constant implements Predictor {
    private final String name;
    private final double value;

    Constant(String name, double value) {
      this.name = name;
      this.value = value;
    }

    @Override
    public void observe(double ignored) {}

    @Override
    public double predict() {
      return value;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public long stateBytes() {
      return 16;
    }
  }

  private static PredictorRegistry constants() {
    PredictorRegistry r = PredictorRegistry.standard();
    for (double v : new double[] {0, 1, 10}) {
      String name = "always-" + (int) v;
      r.register(name, () -> new Constant(name, v));
    }
    return r;
  }

  private static Battery battery(List<String> faithful, List<String> extended, int burnIn) {
    return BatteryLayout.of(constants(), faithful, extended).withBurnIn(burnIn).newBattery();
  }

  private static void feed(Battery b, double value, int times) {
    for (int i = 0; i < times; i++) {
      b.observe(value);
    }
  }

  private static int rule(String name) {
    for (int j = 0; j < Battery.selectorCount(); j++) {
      if (Battery.selectorName(j).equals(name)) {
        return j;
      }
    }
    throw new AssertionError(name);
  }

  @Test
  void selectors_recentChangeOfRegime_windowsFollowItWholeHistoryDoesNot() {
    Battery b = battery(List.of("always-0", "always-10"), List.of(), 0);
    feed(b, 0, 51); // 50 scored steps: always-0 perfect, always-10 off by 10
    feed(b, 10, 3); // 3 scored steps the other way
    // Whole history: always-0 has 3 errors of 10, always-10 has 50.
    assertEquals(0.0, b.faithfulSelectorForecast(rule("min-mse")), 0);
    assertEquals(0.0, b.faithfulSelectorForecast(rule("min-mae")), 0);
    // Last 1 and last 5 steps (0 0 10 10 10): always-10 has the lower error.
    for (String name : List.of("min-mse-w1", "min-mae-w1", "min-mse-w5", "min-mae-w5")) {
      assertEquals(10.0, b.faithfulSelectorForecast(rule(name)), 0, name);
    }
    // Last 10 or more: seven 0s outweigh three 10s.
    for (int w : new int[] {10, 20, 30, 50, 100}) {
      assertEquals(0.0, b.faithfulSelectorForecast(rule("min-mse-w" + w)), 0);
      assertEquals(0.0, b.faithfulSelectorForecast(rule("min-mae-w" + w)), 0);
    }
  }

  @Test
  void selectors_fewLargeVersusManySmallErrors_mseAndMaeDisagree() {
    // Cycles of ten 0s and one 10. always-1: errors 1 (x10) and 9: MAE 19, MSE 91 per cycle.
    // always-0: errors 0 (x10) and 10: MAE 10, MSE 100 per cycle.
    Battery b = battery(List.of("always-0", "always-1"), List.of(), 0);
    b.observe(0);
    for (int cycle = 0; cycle < 20; cycle++) {
      feed(b, 0, 10);
      b.observe(10);
    }
    assertEquals(1.0, b.faithfulSelectorForecast(rule("min-mse")), 0);
    assertEquals(0.0, b.faithfulSelectorForecast(rule("min-mae")), 0);
    assertEquals(1.0, b.faithfulForecast(Criterion.MSE).value(), 0);
    assertEquals(0.0, b.faithfulForecast(Criterion.MAE).value(), 0);
    assertEquals("always-0", b.faithfulForecast(Criterion.MAE).method());
  }

  @Test
  void observe_scoresStandingForecastBeforeTheMemberSeesTheValue() {
    Battery b = BatteryLayout.faithful().newBattery();
    b.observe(1);
    b.observe(2);
    b.observe(4);
    // Last value forecast 1 then 2: errors 1 and 2. Had it seen each value first, 0 and 0.
    // Every faithful member forecasts 1 after the first value, so step one costs 1 for all.
    ForecastResult r = b.faithfulForecast(Criterion.MAE);
    assertEquals(3, r.count());
    assertTrue(r.mae() > 0);
    Battery last = battery(List.of("last-value"), List.of(), 0);
    feed(last, 1, 1);
    last.observe(2);
    last.observe(4);
    ForecastResult only = last.forecast(Criterion.MAE);
    assertEquals(1.5, only.mae(), 1e-12); // (1 + 2) / 2
    assertEquals(2.5, only.mse(), 1e-12); // (1 + 4) / 2
    assertEquals(4.0, only.value(), 0);
    assertEquals("last-value", only.method());
  }

  @Test
  void extendedMember_beforeBurnIn_isNeverSelected() {
    Battery b = battery(List.of("always-0"), List.of("always-10"), 5);
    for (int i = 1; i <= 5; i++) {
      b.observe(10);
      assertEquals(0.0, b.extendedSelectorForecast(rule("min-mae-w1")), 0, "count " + i);
      assertEquals(0.0, b.forecast(Criterion.MAE).value(), 0);
    }
    b.observe(10); // count 6 > burn-in: always-10, perfect since, may now be chosen
    assertEquals(10.0, b.extendedSelectorForecast(rule("min-mae-w1")), 0);
    // Whole-history rules count from the burn-in: a tie (lower index wins) until a step is
    // scored after it.
    assertEquals(0.0, b.extendedSelectorForecast(rule("min-mae")), 0);
    b.observe(10);
    assertEquals(10.0, b.extendedSelectorForecast(rule("min-mae")), 0);
    assertEquals(0.0, b.faithfulSelectorForecast(rule("min-mae")), 0);
  }

  @Test
  void served_extensionBetterOverTime_switchesFromFaithfulTotal() {
    Battery b = battery(List.of("always-0"), List.of("always-10"), 3);
    feed(b, 10, 4);
    // The extended total only became different from the faithful one after burn-in; until its
    // cumulative error is lower the faithful total is served.
    assertEquals(0.0, b.forecast(Criterion.MSE).value(), 0);
    feed(b, 10, 3);
    assertEquals(10.0, b.forecast(Criterion.MSE).value(), 0);
    assertEquals(10.0, b.forecast(Criterion.MAE).value(), 0);
    // The combiners put all their weight on always-10 (never wrong) as soon as it is eligible, so
    // one of them, or the extended total following always-10, serves it.
    String method = b.forecast(Criterion.MAE).method();
    assertTrue(method.equals("always-10") || method.startsWith("inverse-error-"), method);
    assertEquals(0.0, b.faithfulForecast(Criterion.MAE).value(), 0);
  }

  @Test
  void oracle_isTheBestMemberAtEveryStep() {
    Battery b = battery(List.of("always-0", "always-10"), List.of(), 0);
    b.observe(0);
    b.observe(0); // best error 0
    b.observe(10); // best error 0
    b.observe(4); // best error 4
    assertEquals(4.0 / 3, b.oracle(Criterion.MAE, true), 1e-12);
    assertEquals(16.0 / 3, b.oracle(Criterion.MSE, false), 1e-12);
  }

  @Test
  void forecast_intervalFollowsTheCriterionsError() {
    Battery b = battery(List.of("last-value"), List.of(), 0);
    b.observe(1);
    b.observe(2);
    b.observe(4);
    ForecastResult mse = b.forecast(Criterion.MSE, 0.95);
    double half = ForecastResult.Z95 * Math.sqrt(2.5);
    assertEquals(4 - half, mse.lower(), 1e-12);
    assertEquals(4 + half, mse.upper(), 1e-12);
    ForecastResult mae = b.forecast(Criterion.MAE, 0.95);
    assertEquals(4 + ForecastResult.Z95 * Math.sqrt(Math.PI / 2) * 1.5, mae.upper(), 1e-12);
    assertEquals(Criterion.MAE, mae.criterion());
    // The default coverage, 90 %: z = 1.6449 (the approximation is good to 4.5e-4).
    ForecastResult ninety = b.forecast(Criterion.MSE);
    assertEquals(0.90, ninety.coverage());
    assertEquals(4 + 1.644854 * Math.sqrt(2.5), ninety.upper(), 5e-4 * Math.sqrt(2.5));
  }

  @Test
  void forecast_beforeAnyMeasurement_isNaNWithCountZero() {
    ForecastResult r = BatteryLayout.standard().newBattery().forecast(Criterion.MSE);
    assertEquals(0, r.count());
    assertTrue(Double.isNaN(r.value()));
    assertEquals("none", r.method());
  }

  @Test
  void observe_nonFiniteValue_isRejected() {
    Battery b = BatteryLayout.standard().newBattery();
    assertThrows(IllegalArgumentException.class, () -> b.observe(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> b.observe(Double.POSITIVE_INFINITY));
    assertEquals(0, b.count());
  }

  @Test
  void standardLayout_holdsTheEighteenFaithfulFirst_andFitsTheStateBudget() {
    BatteryLayout layout = BatteryLayout.standard();
    assertEquals(PredictorRegistry.FAITHFUL, layout.members().subList(0, 18));
    assertEquals(18, layout.faithfulCount());
    Battery b = layout.newBattery();
    for (int i = 0; i < b.memberCount(); i++) {
      assertEquals(layout.members().get(i), b.memberName(i));
    }
    assertTrue(layout.stateBytesPerSeries() <= 32 * 1024, "" + layout.stateBytesPerSeries());
    assertTrue(BatteryLayout.faithful().stateBytesPerSeries() < layout.stateBytesPerSeries());
  }

  @Test
  void faithfulLayout_servesExactlyTheFaithfulTotals() {
    Battery b = BatteryLayout.faithful().newBattery();
    for (int t = 0; t < 500; t++) {
      b.observe(Math.sin(t / 7.0) * 10 + (t % 13 == 0 ? 25 : 0));
      for (Criterion c : Criterion.values()) {
        // The same forecast, errors and method; only the served one's interval is calibrated.
        ForecastResult f = b.faithfulForecast(c);
        ForecastResult s = b.forecast(c);
        assertEquals(f.value(), s.value());
        assertEquals(f.mse(), s.mse());
        assertEquals(f.mae(), s.mae());
        assertEquals(f.method(), s.method());
        assertEquals(f.count(), s.count());
      }
    }
  }

  @Test
  void layout_unknownOrDuplicateMember_isRejectedNamingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BatteryLayout.of(PredictorRegistry.standard(), List.of("nope"), List.of()));
    assertTrue(e.getMessage().contains("nope"));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            BatteryLayout.of(
                PredictorRegistry.standard(), List.of("last-value"), List.of("last-value")));
  }

  @Test
  void registry_everyStandardName_createsAPredictorOfThatName() {
    PredictorRegistry registry = PredictorRegistry.standard();
    for (String name : registry.names()) {
      assertEquals(name, registry.create(name).name());
    }
    assertFalse(registry.names().isEmpty());
  }

  @Test
  void registry_membersCreatedTogether_shareWindowsAndCountThemOnce() {
    PredictorRegistry registry = PredictorRegistry.standard();
    List<Predictor> together = registry.create(List.of("median-31", "trimmed-mean-31"));
    long alone =
        registry.create("median-31").stateBytes() + registry.create("trimmed-mean-31").stateBytes();
    long shared = together.get(0).stateBytes() + together.get(1).stateBytes();
    assertTrue(shared < alone);
    for (int t = 0; t < 100; t++) {
      together.get(0).observe(t % 17);
      together.get(1).observe(t % 17);
    }
    Predictor median = registry.create("median-31");
    for (int t = 0; t < 100; t++) {
      median.observe(t % 17);
    }
    assertEquals(median.predict(), together.get(0).predict(), 0);
  }
}
