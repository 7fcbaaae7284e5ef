package org.netweather.model.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import org.junit.jupiter.api.Test;

class ShardSetTest {
  @Test
  void theTextFormRoundTripsAndStaysShort() {
    ShardSet set = ShardSet.none().add(0).add(7).add(4095);
    ShardSet back = ShardSet.parse(set.text());
    assertEquals(set, back);
    assertTrue(back.contains(7));
    assertFalse(back.contains(8));
    assertEquals(3, back.size());
    assertTrue(ShardSet.all().text().length() <= 684);
    assertEquals(Shards.COUNT, ShardSet.parse(ShardSet.all().text()).size());
    assertTrue(ShardSet.parse("").isEmpty());
  }

  @Test
  void badTextIsRefusedSayingWhy() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> ShardSet.parse("not base64!"))
            .getMessage()
            .contains("base64"));
    String tooLong = Base64.getEncoder().encodeToString(new byte[513]);
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> ShardSet.parse(tooLong))
            .getMessage()
            .contains("513 bytes"));
  }
}
