package org.netweather.model.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ShardsTest {
  @Test
  void murmur3MatchesTheReferenceAnswers() {
    assertEquals(0, Murmur3.hash32(new byte[0], 0));
    assertEquals(0x248bfa47, Murmur3.hash32(bytes("hello"), 0));
    assertEquals(
        0x2e4ff723, Murmur3.hash32(bytes("The quick brown fox jumps over the lazy dog"), 0));
    assertEquals(0x514e28b7, Murmur3.hash32(new byte[0], 1));
  }

  @Test
  void aHostsPairSeriesLandInItsOwnShard() {
    int alpha = Shards.ofHost("alpha");
    assertEquals(alpha, Shards.of("cpu.availability:alpha"));
    assertEquals(alpha, Shards.of("tcp.bandwidth:alpha->beta"));
    assertEquals(Shards.ofHost("beta"), Shards.of("tcp.latency:beta->alpha"));
  }

  @Test
  void hostsSpreadOverTheShards() {
    int[] counts = new int[Shards.COUNT];
    for (int i = 0; i < 409_600; i++) {
      counts[Shards.ofHost("host-" + i)]++;
    }
    for (int c : counts) {
      // 100 expected per shard; a fair hash keeps every shard well within 50..150.
      assertTrue(c >= 50 && c <= 150, "a shard holds " + c + " of 409 600 hosts");
    }
  }

  @Test
  void aShardOutOfRangeIsNamed() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Shards.check(4096))
            .getMessage()
            .contains("shard 4096"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Shards.check(-1))
            .getMessage()
            .contains("shard -1"));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
