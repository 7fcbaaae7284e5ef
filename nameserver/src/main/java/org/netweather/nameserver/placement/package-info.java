/**
 * Memory-host placement by shard under the ZooKeeper registry: which memory-hosts store each of the
 * site's 4096 shards, kept in 16 versioned registry values and changed only by compare-and-set. The
 * algorithm ({@link org.netweather.nameserver.placement.ShardPlacement}) is plain Java on an
 * injected clock; {@link org.netweather.nameserver.placement.PlacementStore} reads and writes the
 * values; {@link org.netweather.nameserver.placement.Placements} answers the nameserver's calls.
 * See {@code docs/placement.md}.
 */
package org.netweather.nameserver.placement;
