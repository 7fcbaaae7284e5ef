/**
 * The registry on a ZooKeeper ensemble, through Apache Curator ({@link
 * org.netweather.registry.zookeeper.ZooKeeperRegistry}, its znode layout in {@link
 * org.netweather.registry.zookeeper.Znodes}), and {@link
 * org.netweather.registry.zookeeper.ZooKeeperServer}, one ZooKeeper server from the jars NetWeather
 * ships.
 */
package org.netweather.registry.zookeeper;
