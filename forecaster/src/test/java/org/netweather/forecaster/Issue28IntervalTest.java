package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastReplay;
import org.netweather.forecaster.battery.ForecastResult;
import org.netweather.forecaster.battery.PhysicalRange;
import org.netweather.model.Resource;
import org.netweather.runtime.StreamLimits;
import org.netweather.testing.GrpcCleanupExtension;

/**
 * Issue 28: an interval never leaves the resource's physical range (a CPU band reached 1.15 on a
 * 0..1 fraction), and the coverage a request leaves unset is the forecaster's setting.
 */
class Issue28IntervalTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  /** CPU availability ramping up to 1 and then idling just below it, with noise. */
  private static double[] rampToFull(int n) {
    Random r = new Random(28);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = Math.max(0, Math.min(1, i / 200.0) - Math.abs(0.03 * r.nextGaussian()));
    }
    return v;
  }

  @Test
  void replay_cpuRamp_everyBandWithinZeroAndOne_thoughTheRawOnesReachPastIt() {
    double[] v = rampToFull(400);
    ForecastResult[] raw =
        ForecastReplay.oneStep(
            BatteryLayout.standard(), v, Criterion.MSE, 0.90, PhysicalRange.UNBOUNDED);
    ForecastResult[] clipped =
        ForecastReplay.oneStep(
            BatteryLayout.standard(),
            v,
            Criterion.MSE,
            0.90,
            PhysicalRange.of(Resource.CPU_AVAILABILITY));
    int pastOne = 0;
    for (int i = 1; i < raw.length; i++) {
      pastOne += raw[i].upper() > 1 ? 1 : 0;
      // NaN until a second measurement gives an error to size the interval by.
      assertTrue(!(clipped[i].lower() < 0) && !(clipped[i].upper() > 1), "step " + i);
      assertTrue(clipped[i].value() >= 0 && clipped[i].value() <= 1, "step " + i);
      assertEquals(0.90, clipped[i].coverage());
    }
    assertTrue(pastOne > 100, "the unclipped band reaches past 1 on " + pastOne + " steps");
    // Every measurement lies in [0, 1], so clipping keeps every one the band held.
    for (int i = 1; i < v.length; i++) {
      boolean inRaw = v[i] >= raw[i].lower() && v[i] <= raw[i].upper();
      boolean inClipped = v[i] >= clipped[i].lower() && v[i] <= clipped[i].upper();
      assertEquals(inRaw, inClipped, "step " + i);
    }
  }

  @Test
  void forecaster_cpuRamp_servesABandWithinZeroAndOne_atItsConfiguredCoverage() throws Exception {
    BatteryLayout layout = BatteryLayout.standard();
    SeriesForecasts forecasts = new SeriesForecasts(layout);
    double[] v = rampToFull(400);
    long[] t = new long[v.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = 10_000L * (i + 1);
    }
    forecasts.observe("cpu.availability:a", t, v, v.length);
    Battery check = layout.newBattery();
    for (double x : v) {
      check.observe(x);
    }
    assertTrue(check.forecast(Criterion.MSE, 0.95).upper() > 1, "the raw band reaches past 1");
    ForecasterGrpc.ForecasterBlockingStub stub =
        ForecasterGrpc.newBlockingStub(
            grpc.inProcess(
                new ForecasterService(
                    forecasts, layout, StreamLimits.watches("forecaster", 8, 8), 0.95)));
    Forecast f =
        stub.getForecast(GetForecastRequest.newBuilder().setSeries("cpu.availability:a").build());
    assertEquals(0.95, f.getInterval().getConfidence());
    assertTrue(f.getInterval().getLower() >= 0, f.toString());
    assertEquals(1.0, f.getInterval().getUpper(), 0, f.toString());
    Forecast asked =
        stub.getForecast(
            GetForecastRequest.newBuilder()
                .setSeries("cpu.availability:a")
                .setCoverage(0.6)
                .build());
    assertEquals(0.6, asked.getInterval().getConfidence());
  }

  @Test
  void coverageSetting_outsideFiftyToNinetyNine_isRefusedNamingIt() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                ForecasterProperties.defaults()
                    .values()
                    .with(ForecasterProperties.COVERAGE, 0.999));
    assertTrue(e.getMessage().contains("coverage"), e.getMessage());
  }
}
