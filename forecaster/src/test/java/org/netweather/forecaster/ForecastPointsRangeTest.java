package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.ForecastPointsRequest;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.Measurement;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.testing.GrpcCleanupExtension;

/** Values a caller hands the battery obey the same physical ranges the memory-host enforces. */
class ForecastPointsRangeTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private ForecastPointsRequest request(String series, double... values) {
    ForecastPointsRequest.Builder b = ForecastPointsRequest.newBuilder().setSeries(series);
    for (int i = 0; i < values.length; i++) {
      b.addPoints(Measurement.newBuilder().setTimestampMs(1000L * (i + 1)).setValue(values[i]));
    }
    return b.build();
  }

  @Test
  void knownResource_outsideItsRange_isInvalidArgumentNamingTheRange() throws Exception {
    BatteryLayout layout = BatteryLayout.standard();
    ForecasterGrpc.ForecasterBlockingStub stub =
        ForecasterGrpc.newBlockingStub(
            grpc.inProcess(new ForecasterService(new SeriesForecasts(layout), layout)));

    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.forecastPoints(request("tcp.bandwidth:a->b", 90, 1e308)));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertTrue(
        e.getStatus().getDescription().contains("points[1].value")
            && e.getStatus().getDescription().contains("[0, 10000000] Mbit/s"),
        e.getStatus().getDescription());

    assertEquals(
        95.0, stub.forecastPoints(request("tcp.bandwidth:a->b", 95, 95, 95)).getValue(), 1e-9);
    assertEquals(7.0, stub.forecastPoints(request("", 7, 7)).getValue(), 1e-9);
  }
}
