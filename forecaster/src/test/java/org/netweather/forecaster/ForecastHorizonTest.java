package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.testing.GrpcCleanupExtension;

/** GetForecast with a horizon: the mean over the next span, in the series' own periods. */
class ForecastHorizonTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  @Test
  void getForecast_horizon_isTheMeanOverThatManyPeriods() throws Exception {
    BatteryLayout layout = BatteryLayout.standard();
    SeriesForecasts forecasts = new SeriesForecasts(layout);
    int n = 1_000;
    long[] times = new long[n];
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      times[i] = 5_000L * (i + 1); // every 5 s
      values[i] = i % 4 < 2 ? 0.9 : 0.5; // period 4: 0.9, 0.9, 0.5, 0.5
    }
    forecasts.observe("cpu.availability:a", times, values, n);
    forecasts.observe("cpu.availability:b", new long[] {5_000, 10_000}, new double[] {0.5, 0.5}, 2);
    ForecasterGrpc.ForecasterBlockingStub stub =
        ForecasterGrpc.newBlockingStub(grpc.inProcess(new ForecasterService(forecasts, layout)));

    Forecast next =
        stub.getForecast(GetForecastRequest.newBuilder().setSeries("cpu.availability:a").build());
    Forecast minute =
        stub.getForecast(
            GetForecastRequest.newBuilder()
                .setSeries("cpu.availability:a")
                .setHorizonMs(60_000)
                .build());
    assertEquals(0.9, next.getValue(), 1e-9);
    assertEquals(0, next.getHorizonSteps());
    assertEquals(12, minute.getHorizonSteps()); // 60 s over 5 s
    assertEquals(60_000, minute.getHorizonMs());
    assertEquals(0.7, minute.getValue(), 1e-6); // three whole periods (history kept as floats)
    assertEquals(0.90, minute.getInterval().getConfidence());

    StatusRuntimeException young =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                stub.getForecast(
                    GetForecastRequest.newBuilder()
                        .setSeries("cpu.availability:b")
                        .setHorizonMs(60_000)
                        .build()));
    assertEquals(Status.Code.FAILED_PRECONDITION, young.getStatus().getCode());
    StatusRuntimeException tooLong =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                stub.getForecast(
                    GetForecastRequest.newBuilder()
                        .setSeries("cpu.availability:a")
                        .setHorizonMs(3_600_000)
                        .build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, tooLong.getStatus().getCode());
  }
}
