package org.netweather.forecaster;

import java.util.Optional;

/**
 * Which shards this forecaster answers for, and who answers for the others. Without a shared
 * registry a forecaster serves every shard ({@link #ALL}); with one, {@link ShardMembership}.
 */
interface ShardGate {
  /** Every shard served here: a site of one forecaster. */
  ShardGate ALL =
      new ShardGate() {
        @Override
        public boolean sharded() {
          return false;
        }

        @Override
        public boolean serves(int shard) {
          return true;
        }

        @Override
        public Optional<ShardOwnership.Peer> hint(int shard) {
          return Optional.empty();
        }
      };

  /** Whether this forecaster shares the site's shards with others. */
  boolean sharded();

  /** Whether this forecaster answers for {@code shard} now. */
  boolean serves(int shard);

  /** The forecaster believed to serve {@code shard}, if one is known. */
  Optional<ShardOwnership.Peer> hint(int shard);
}
