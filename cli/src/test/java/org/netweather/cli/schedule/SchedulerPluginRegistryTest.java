package org.netweather.cli.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SchedulerPluginRegistryTest {
  private static final class Fake implements SchedulerPluginProvider {
    final String name;
    final int priority;
    final boolean available;

    Fake(String name, int priority, boolean available) {
      this.name = name;
      this.priority = priority;
      this.available = available;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return "fake";
    }

    @Override
    public boolean isAvailable() {
      return available;
    }

    @Override
    public int priority() {
      return priority;
    }

    @Override
    public Object newCommand() {
      return new Object();
    }
  }

  /** A different class, so the registry treats it as a different plugin. */
  private static final class Other implements SchedulerPluginProvider {
    @Override
    public String name() {
      return "jacobi";
    }

    @Override
    public String description() {
      return "other";
    }

    @Override
    public boolean isAvailable() {
      return true;
    }

    @Override
    public int priority() {
      return 9;
    }

    @Override
    public Object newCommand() {
      return new Object();
    }
  }

  @Test
  void register_sameNameHigherPriority_replaces() {
    SchedulerPluginRegistry r = new SchedulerPluginRegistry();
    Fake low = new Fake("jacobi", 5, true);
    Other high = new Other();
    r.register(low);
    r.register(high);
    assertSame(high, r.provider("jacobi").orElseThrow());
    r.deregister(high);
    assertSame(low, r.provider("jacobi").orElseThrow());
  }

  @Test
  void register_equalPriority_firstStays() {
    SchedulerPluginRegistry r = new SchedulerPluginRegistry();
    Fake first = new Fake("tree", 5, true);
    r.register(first);
    r.register(new Fake("tree", 5, true));
    assertSame(first, r.provider("tree").orElseThrow());
    assertEquals(1, r.providers().size());
  }

  @Test
  void register_unavailable_ignored() {
    SchedulerPluginRegistry r = new SchedulerPluginRegistry();
    r.register(new Fake("gpu", 5, false));
    assertTrue(r.provider("gpu").isEmpty());
  }

  @Test
  void providers_sortedByName() {
    SchedulerPluginRegistry r = new SchedulerPluginRegistry();
    r.register(new Fake("tree", 5, true));
    r.register(new Other());
    assertEquals("jacobi", r.providers().get(0).name());
    assertEquals("tree", r.providers().get(1).name());
  }

  @Test
  void register_blankName_rejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new SchedulerPluginRegistry().register(new Fake(" ", 5, true)));
  }

  @Test
  void defaultRegistry_findsEveryBuiltInPluginThroughServiceLoader() {
    // Nothing registers these by hand: only META-INF/services names them.
    assertEquals(
        java.util.List.of("broadcast", "cluster", "jacobi", "pipeline", "swap", "tree"),
        SchedulerPluginRegistry.getDefaultRegistry().providers().stream()
            .map(SchedulerPluginProvider::name)
            .toList());
  }
}
