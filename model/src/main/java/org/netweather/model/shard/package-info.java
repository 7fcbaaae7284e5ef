/**
 * How a site's series are cut into a fixed number of shards and how each shard finds its owner
 * among live daemons, computed the same way by every process with no coordinator: see {@code
 * docs/sharding.md}.
 */
package org.netweather.model.shard;
