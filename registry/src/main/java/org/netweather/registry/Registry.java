package org.netweather.registry;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The site's shared, durable state: what every nameserver (and later every daemon) of a site must
 * agree on, behind one interface with two implementations. {@link LocalRegistry} keeps it in this
 * process and a file (a site of one machine: no engine to run); {@code ZooKeeperRegistry} keeps it
 * on a ZooKeeper ensemble, so that several processes share it and none of them is a single point of
 * failure. Both pass one contract test suite.
 *
 * <p>What is here, and what is not:
 *
 * <ul>
 *   <li>daemon records (memory-hosts, forecasters, proxies, nameservers: O(100) per site), keyed by
 *       name;
 *   <li>host records, grouped per cluster (O(clusters) objects, not O(hosts));
 *   <li>clique definitions;
 *   <li>a versioned key/value area for placements and the like, changed only by {@link
 *       #compareAndSet}, whose version is the fencing token of whoever writes;
 *   <li>membership: a process joins a group and is listed while its session lives.
 * </ul>
 *
 * Nothing per series and nothing per sensor heartbeat: leases stay soft state in the nameserver
 * that granted them, and the series directory stays in the nameserver's own journal.
 *
 * <p>Writes return once the change is durable in the shared state (forced to the local file, or
 * acknowledged by a ZooKeeper quorum); a reader through the same registry sees it at once, a reader
 * through another instance once its {@link RegistryListener} is told. While the link is {@link
 * RegistryState#SUSPENDED}, reads come from the cached copy and writes wait within a bound, then
 * throw {@link RegistryException}.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface Registry extends AutoCloseable {
  /** Adds or replaces the daemon record of that name. */
  void putDaemon(DaemonRecord daemon);

  /** Removes the daemon record of that name; false if there was none. */
  boolean removeDaemon(String name);

  Optional<DaemonRecord> daemon(String name);

  /** Every daemon record, by name. */
  List<DaemonRecord> daemons();

  /** Adds or replaces a host record in its cluster. */
  void putHost(HostRecord host);

  /** Removes a host record from its cluster; false if there was none. */
  boolean removeHost(String cluster, String host);

  /** The host records of one cluster, by host name; empty for a cluster unknown. */
  List<HostRecord> hosts(String cluster);

  /** The clusters holding at least one host record, sorted. */
  Set<String> clusters();

  /** Adds or replaces the clique of that name. */
  void putClique(CliqueRecord clique);

  /** Removes the clique of that name; false if there was none. */
  boolean removeClique(String name);

  /** Every clique, by name. */
  List<CliqueRecord> cliques();

  /** The value at {@code key} (up to 8 {@code /}-separated parts) with its version. */
  Optional<Versioned> value(String key);

  /**
   * Sets {@code key} to {@code data} if it is still at {@code expectedVersion} ({@link
   * Versioned#ABSENT}: if it does not exist yet), and returns the new version.
   *
   * @throws StaleVersionException if another version is there: read again, decide again, retry
   */
  int compareAndSet(String key, byte[] data, int expectedVersion);

  /**
   * Joins {@code group} as {@code id} for as long as this registry's session lives (and again under
   * every new session, until the presence is closed). Joining under an id whose earlier membership
   * still lives (a process restarted within its session timeout) takes it over without a gap: on
   * ZooKeeper the old node stays until its session ends and is then made again under this one, so
   * members listing the group never see the id missing.
   */
  Presence join(String group, String id, Map<String, String> data);

  /** The live members of a group, by id. */
  List<Member> members(String group);

  /** Tells {@code listener} of every later change and of the link's state, until closed. */
  AutoCloseable watch(RegistryListener listener);

  /** The link's state now. */
  RegistryState state();

  /** Leaves every group joined and lets go of the shared state. */
  @Override
  void close();
}
