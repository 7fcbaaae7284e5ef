package org.netweather.nameserver.placement;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.UnaryOperator;
import org.netweather.registry.Registry;
import org.netweather.registry.RegistryEvent;
import org.netweather.registry.RegistryException;
import org.netweather.registry.RegistryListener;
import org.netweather.registry.StaleVersionException;
import org.netweather.registry.Versioned;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 16 placement values in the registry ({@code placement/memory/0} to {@code 15}), read through
 * a copy of each that a registry event invalidates, and changed only by compare-and-set at the
 * version read: a writer that lost the race reads again and decides again, so concurrent writers
 * (two nameservers, an operator's move) end with one placement, and a deposed writer's stale
 * decision is refused by the version it carries.
 */
final class PlacementStore implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PlacementStore.class);

  /** Enough for every nameserver of a site to win once; each retry reads the value again. */
  static final int MAX_TRIES = 20;

  private final Registry registry;
  private final AtomicReferenceArray<PlacementPart> cached =
      new AtomicReferenceArray<>(PlacementPart.PARTS);
  private final AutoCloseable watch;

  /** Bumped by every invalidation, so that a load racing one is not kept. */
  private final java.util.concurrent.atomic.AtomicLong generation =
      new java.util.concurrent.atomic.AtomicLong();

  PlacementStore(Registry registry) {
    this.registry = registry;
    this.watch =
        registry.watch(
            new RegistryListener() {
              @Override
              public void onChange(RegistryEvent e) {
                if (e.area() == RegistryEvent.Area.VALUE
                    && e.key().startsWith("placement/memory/")) {
                  invalidateAll();
                }
              }
            });
  }

  /** One part as the registry holds it (empty lists if it was never written). */
  PlacementPart read(int part) {
    PlacementPart p = cached.get(part);
    if (p == null) {
      long g = generation.get();
      p = load(part);
      if (generation.get() == g) {
        cached.compareAndSet(part, null, p);
      }
    }
    return p;
  }

  private PlacementPart load(int part) {
    String key = PlacementPart.key(part);
    Optional<Versioned> v = registry.value(key);
    if (v.isEmpty()) {
      return PlacementPart.empty(part, Versioned.ABSENT);
    }
    try {
      return new PlacementPart(part, PlacementCodec.decode(key, v.get().data()), v.get().version());
    } catch (IllegalArgumentException e) {
      throw new RegistryException("the registry's " + e.getMessage(), e);
    }
  }

  /**
   * Applies {@code change} to the part and writes the result at the version it was read at, reading
   * and applying again while another writer gets there first. Writes nothing when {@code change}
   * returns its argument unchanged.
   *
   * @return the part as written (or as found, if nothing changed)
   * @throws StaleVersionException if other writers won {@value #MAX_TRIES} times in a row
   */
  PlacementPart update(int part, UnaryOperator<List<List<String>>> change) {
    StaleVersionException last = null;
    for (int i = 0; i < MAX_TRIES; i++) {
      PlacementPart now = load(part);
      List<List<String>> next = change.apply(now.shards());
      if (next.equals(now.shards())) {
        return now;
      }
      try {
        int version =
            registry.compareAndSet(
                PlacementPart.key(part), PlacementCodec.encode(next), now.version());
        invalidateAll();
        return new PlacementPart(part, next, version);
      } catch (StaleVersionException e) {
        last = e;
        log.debug("placement part {} changed under us; reading it again", part);
      }
    }
    throw last;
  }

  void invalidateAll() {
    generation.incrementAndGet();
    for (int i = 0; i < PlacementPart.PARTS; i++) {
      cached.set(i, null);
    }
  }

  @Override
  public void close() throws Exception {
    watch.close();
  }
}
