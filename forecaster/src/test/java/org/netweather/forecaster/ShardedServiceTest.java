package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.GetForecastsResponse;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;
import org.netweather.runtime.StreamLimits;
import org.netweather.testing.GrpcCleanupExtension;

/**
 * The service of a forecaster that serves some shards only: refusals name the shard and the owner,
 * GetForecasts sorts names into forecasts and not_owned, patterns see only served series, and a
 * watch ends when a shard it covers moves.
 */
class ShardedServiceTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private static final String MINE = "cpu.availability:alpha";
  private static final String THEIRS = "cpu.availability:beta";

  /** A gate serving alpha's shard only, and naming fc2 as the owner of the rest. */
  private static final class Gate implements ShardGate {
    volatile ShardSet serving = ShardSet.none().add(Shards.ofHost("alpha"));

    @Override
    public boolean sharded() {
      return true;
    }

    @Override
    public boolean serves(int shard) {
      return serving.contains(shard);
    }

    @Override
    public Optional<ShardOwnership.Peer> hint(int shard) {
      return Optional.of(new ShardOwnership.Peer("forecaster@fc2", "fc2:8070", ShardSet.none()));
    }
  }

  private final Gate gate = new Gate();
  private final SeriesForecasts forecasts = new SeriesForecasts(BatteryLayout.standard());
  private final ForecasterService service =
      new ForecasterService(
          forecasts,
          BatteryLayout.standard(),
          StreamLimits.watches("forecaster", 16, 16),
          Battery.DEFAULT_COVERAGE,
          gate);

  private ForecasterGrpc.ForecasterBlockingStub stub() throws Exception {
    assertTrue(Shards.ofHost("alpha") != Shards.ofHost("beta"));
    for (String s : List.of(MINE, THEIRS)) {
      forecasts.observe(s, new long[] {1000, 2000}, new double[] {0.5, 0.5}, 2);
    }
    return ForecasterGrpc.newBlockingStub(grpc.inProcess(service));
  }

  @Test
  void getForecast_ofAShardNotServed_isShardNotOwned_withTheOwner() throws Exception {
    ForecasterGrpc.ForecasterBlockingStub stub = stub();
    assertEquals(
        0.5, stub.getForecast(GetForecastRequest.newBuilder().setSeries(MINE).build()).getValue());
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.getForecast(GetForecastRequest.newBuilder().setSeries(THEIRS).build()));
    assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
    ErrorInfo info = StatusProto.fromThrowable(e).getDetails(0).unpack(ErrorInfo.class);
    assertEquals("SHARD_NOT_OWNED", info.getReason());
    assertEquals("netweather.org", info.getDomain());
    assertEquals(
        Map.of(
            "shard", Integer.toString(Shards.ofHost("beta")),
            "owner", "forecaster@fc2",
            "owner_address", "fc2:8070"),
        info.getMetadataMap());
  }

  @Test
  void getForecasts_listsNamesNotServedAsNotOwned_andPatternsMatchOnlyServedSeries()
      throws Exception {
    GetForecastsResponse r =
        stub()
            .getForecasts(
                GetForecastsRequest.newBuilder()
                    .addSeries(MINE)
                    .addSeries(THEIRS)
                    .addSeries("cpu.*")
                    .addSeries("*:beta")
                    .build());
    assertEquals(List.of(THEIRS), r.getNotOwnedList());
    assertEquals(
        List.of(MINE, MINE), r.getForecastsList().stream().map(f -> f.getSeries()).toList());
    assertEquals(List.of("*:beta"), r.getNotFoundList());
  }

  @Test
  void watch_endsWithShardNotOwned_whenACoveredShardMoves() throws Exception {
    ForecasterGrpc.ForecasterBlockingStub stub = stub();
    StatusRuntimeException refused =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                stub.watchForecasts(GetForecastsRequest.newBuilder().addSeries(THEIRS).build())
                    .hasNext());
    assertEquals(Status.Code.FAILED_PRECONDITION, refused.getStatus().getCode());

    Iterator<ForecastUpdate> watch =
        stub.watchForecasts(GetForecastsRequest.newBuilder().addSeries("*").build());
    assertEquals(MINE, watch.next().getForecast().getSeries());

    ShardSet before = gate.serving;
    ShardSet after = before.copy().add(Shards.ofHost("beta"));
    gate.serving = after;
    service.servingChanged(before, after);
    StatusRuntimeException ended =
        assertThrows(
            StatusRuntimeException.class,
            () -> {
              while (watch.hasNext()) {
                watch.next();
              }
            });
    assertEquals(Status.Code.FAILED_PRECONDITION, ended.getStatus().getCode());
    ErrorInfo info = StatusProto.fromThrowable(ended).getDetails(0).unpack(ErrorInfo.class);
    assertEquals("SHARD_NOT_OWNED", info.getReason());
    assertEquals(Integer.toString(Shards.ofHost("beta")), info.getMetadataOrThrow("shard"));
  }
}
