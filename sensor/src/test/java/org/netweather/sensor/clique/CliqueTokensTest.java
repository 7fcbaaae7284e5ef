package org.netweather.sensor.clique;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CliqueTokensTest {

  @Test
  void toProtoFromProto_roundTrips() {
    CliqueToken t =
        new CliqueToken(
            "lan",
            4,
            17,
            List.of("a", "b", "c"),
            2,
            Duration.ofSeconds(60),
            "b",
            1_700_000_000_000L);

    assertEquals(t, CliqueTokens.fromProto(CliqueTokens.toProto(t)));
  }

  @Test
  void fromProto_holderOutOfRange_invalid() {
    org.netweather.api.v1.CliqueToken bad =
        org.netweather.api.v1.CliqueToken.newBuilder()
            .setClique("lan")
            .addMembers("a")
            .setHolder(3)
            .setPeriodSeconds(60)
            .build();

    assertThrows(IllegalArgumentException.class, () -> CliqueTokens.fromProto(bad));
  }

  @Test
  void isNewerThan_ordersByInstanceThenOriginatorThenSequence() {
    CliqueToken base = new CliqueToken("c", 2, 5, List.of("a"), 0, Duration.ofSeconds(1), "m", 0);

    assertTrue(base.isNewerThan(null));
    assertTrue(
        new CliqueToken("c", 3, 0, List.of("a"), 0, Duration.ofSeconds(1), "a", 0)
            .isNewerThan(base));
    assertTrue(
        new CliqueToken("c", 2, 0, List.of("a"), 0, Duration.ofSeconds(1), "z", 0)
            .isNewerThan(base));
    assertTrue(
        new CliqueToken("c", 2, 6, List.of("a"), 0, Duration.ofSeconds(1), "m", 0)
            .isNewerThan(base));
    assertTrue(!base.isNewerThan(base));
  }
}
