package org.netweather.nameserver.placement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.netweather.model.shard.Shards;

/**
 * The placement of one sixteenth of the shards ({@value #SHARDS} of them, {@code part * 256} on) as
 * read from the registry: per shard the memory-hosts that store it, in order (one now; the list
 * leaves room for replicas), empty where none is placed yet.
 *
 * @param version the registry value's version, {@link org.netweather.registry.Versioned#ABSENT} if
 *     it does not exist yet: the fencing token of the next write
 */
record PlacementPart(int part, List<List<String>> shards, int version) {
  static final int PARTS = 16;
  static final int SHARDS = Shards.COUNT / PARTS;

  PlacementPart {
    shards = List.copyOf(shards);
  }

  static PlacementPart empty(int part, int version) {
    return new PlacementPart(part, Collections.nCopies(SHARDS, List.of()), version);
  }

  static int partOf(int shard) {
    return Shards.check(shard) / SHARDS;
  }

  static String key(int part) {
    return "placement/memory/" + part;
  }

  int firstShard() {
    return part * SHARDS;
  }

  /** The memory-hosts of {@code shard}, which must be in this part. */
  List<String> hosts(int shard) {
    return shards.get(shard - firstShard());
  }

  /** A mutable copy of the shards' lists, for an algorithm to change. */
  List<List<String>> copy() {
    return new ArrayList<>(shards);
  }
}
