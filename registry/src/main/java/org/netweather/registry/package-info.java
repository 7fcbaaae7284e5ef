/**
 * The site's shared, durable state behind one interface, {@link org.netweather.registry.Registry}:
 * daemon records, host records grouped per cluster, clique definitions, a versioned key/value area
 * for placements, and membership with sessions. {@link org.netweather.registry.LocalRegistry} keeps
 * it in this process and one file; {@code zookeeper.ZooKeeperRegistry} keeps it on a ZooKeeper
 * ensemble, so that several nameservers share it.
 */
package org.netweather.registry;
