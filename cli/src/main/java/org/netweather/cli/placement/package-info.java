/**
 * {@code nws placement show|move}: which memory-hosts store each shard under the ZooKeeper
 * registry.
 */
package org.netweather.cli.placement;
