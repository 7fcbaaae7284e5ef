package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.CodedInputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.WatchResponse;

class WatchStreamTest {
  @Test
  void decode_readsWhatTheGeneratedCodeWrites() throws Exception {
    WatchResponse msg =
        WatchResponse.newBuilder()
            .addBatches(
                SeriesPoints.newBuilder()
                    .setSeries("cpu.availability:a")
                    .addPoints(Measurement.newBuilder().setTimestampMs(1000).setValue(0.25))
                    .addPoints(Measurement.newBuilder().setTimestampMs(2000).setValue(-3.5)))
            .addBatches(SeriesPoints.newBuilder().setSeries("tcp.latency:a->b"))
            .addBatches(
                SeriesPoints.newBuilder()
                    .setSeries("memory.free:\u00e9t\u00e9")
                    .addPoints(Measurement.newBuilder().setTimestampMs(1_700_000_000_123L)))
            .addDeletedSeries("cpu.availability:gone")
            .build();
    PointBatch b = WatchStream.decode(CodedInputStream.newInstance(msg.toByteArray()));

    assertEquals(3, b.entries());
    assertEquals("cpu.availability:a", b.series(0));
    assertEquals("tcp.latency:a->b", b.series(1));
    assertEquals("memory.free:\u00e9t\u00e9", b.series(2));
    assertEquals(0, b.from(0));
    assertEquals(2, b.to(0));
    assertEquals(2, b.from(1));
    assertEquals(2, b.to(1));
    assertEquals(3, b.to(2));
    assertArrayEquals(
        new long[] {1000, 2000, 1_700_000_000_123L}, Arrays.copyOf(b.times(), b.points()));
    assertArrayEquals(new double[] {0.25, -3.5, 0}, Arrays.copyOf(b.values(), b.points()));
    assertEquals(1, b.deletedCount());
    assertEquals("cpu.availability:gone", b.deletedSeries(0));
    assertEquals(false, b.caughtUp());
    assertEquals(
        true,
        WatchStream.decode(
                CodedInputStream.newInstance(
                    WatchResponse.newBuilder().setCaughtUp(true).build().toByteArray()))
            .caughtUp());
  }
}
