package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.testing.GrpcCleanupExtension;

/** GetForecast and GetForecasts give each interval at the coverage the caller asks for. */
class ForecastCoverageTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private ForecasterGrpc.ForecasterBlockingStub stub() throws Exception {
    BatteryLayout layout = BatteryLayout.standard();
    SeriesForecasts forecasts = new SeriesForecasts(layout);
    int n = 500;
    long[] times = new long[n];
    double[] values = new double[n];
    Random r = new Random(3);
    for (int i = 0; i < n; i++) {
      times[i] = 1000L * (i + 1);
      values[i] = 100 + 10 * r.nextGaussian();
    }
    forecasts.observe("tcp.latency:a->b", times, values, n);
    return ForecasterGrpc.newBlockingStub(grpc.inProcess(new ForecasterService(forecasts, layout)));
  }

  private static double width(Forecast f) {
    return f.getInterval().getUpper() - f.getInterval().getLower();
  }

  @Test
  void getForecast_requestedCoverage_setsConfidenceAndWidensWithIt() throws Exception {
    ForecasterGrpc.ForecasterBlockingStub stub = stub();
    GetForecastRequest.Builder req = GetForecastRequest.newBuilder().setSeries("tcp.latency:a->b");
    Forecast unset = stub.getForecast(req.build());
    Forecast half = stub.getForecast(req.setCoverage(0.5).build());
    Forecast most = stub.getForecast(req.setCoverage(0.99).build());
    assertEquals(0.90, unset.getInterval().getConfidence());
    assertEquals(0.5, half.getInterval().getConfidence());
    assertEquals(0.99, most.getInterval().getConfidence());
    // Gaussian noise of sigma 10: about 2 x 0.67 sigma at 50 %, 2 x 2.58 sigma at 99 %.
    assertTrue(width(half) > 8 && width(half) < 20, "50 %: " + width(half));
    assertTrue(width(most) > 40 && width(most) < 70, "99 %: " + width(most));
    assertTrue(width(half) < width(unset) && width(unset) < width(most));
    Forecast many =
        stub.getForecasts(
                GetForecastsRequest.newBuilder()
                    .addSeries("tcp.latency:*")
                    .setCoverage(0.99)
                    .build())
            .getForecasts(0);
    assertEquals(width(most), width(many), 0);
  }

  @Test
  void getForecast_coverageOutOfRange_isInvalidArgumentNamingIt() throws Exception {
    ForecasterGrpc.ForecasterBlockingStub stub = stub();
    for (double bad : new double[] {0.3, 0.995, 90}) {
      StatusRuntimeException e =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  stub.getForecast(
                      GetForecastRequest.newBuilder()
                          .setSeries("tcp.latency:a->b")
                          .setCoverage(bad)
                          .build()));
      assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
      assertTrue(e.getStatus().getDescription().contains("coverage"));
    }
  }
}
