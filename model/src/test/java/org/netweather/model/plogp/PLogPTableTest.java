package org.netweather.model.plogp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PLogPTableTest {

  private final PLogPTable table =
      new PLogPTable(new double[] {0, 1000, 2000}, new double[] {10, 20, 40});

  @Test
  void at_measuredSize_isExact() {
    assertEquals(10, table.at(0), 0);
    assertEquals(20, table.at(1000), 0);
    assertEquals(40, table.at(2000), 0);
  }

  @Test
  void at_betweenSizes_interpolatesLinearly() {
    assertEquals(15, table.at(500), 1e-12);
    assertEquals(30, table.at(1500), 1e-12);
  }

  @Test
  void at_beyondEnds_extrapolatesTheEndSegments() {
    assertEquals(60, table.at(3000), 1e-12); // from (1000, 20) and (2000, 40)
    assertEquals(5, table.at(-500), 1e-12); // from (0, 10) and (1000, 20)
  }

  @Test
  void at_singleSize_isConstant() {
    PLogPTable one = new PLogPTable(new double[] {0}, new double[] {7});
    assertEquals(7, one.at(1e6), 0);
  }

  @Test
  void constructor_badTables_rejected() {
    assertThrows(
        IllegalArgumentException.class, () -> new PLogPTable(new double[] {}, new double[] {}));
    assertThrows(
        IllegalArgumentException.class,
        () -> new PLogPTable(new double[] {0, 1}, new double[] {1}));
    assertThrows(
        IllegalArgumentException.class,
        () -> new PLogPTable(new double[] {0, 10, 10}, new double[] {1, 2, 3}));
  }

  @Test
  void sizes_isACopy() {
    double[] sizes = {0, 1000};
    PLogPTable t = new PLogPTable(sizes, new double[] {1, 2});
    sizes[1] = 5;
    t.sizes()[0] = 9;
    assertArrayEquals(new double[] {0, 1000}, t.sizes());
  }
}
