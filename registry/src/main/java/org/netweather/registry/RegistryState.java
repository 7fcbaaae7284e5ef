package org.netweather.registry;

/**
 * The registry's link to the shared state, as {@link RegistryListener#onState} reports it.
 *
 * <ul>
 *   <li>{@link #CONNECTED}: reads and writes reach the shared state.
 *   <li>{@link #SUSPENDED}: the link is down but the session may still live (a ZooKeeper leader
 *       change takes 1 to 3 s). Reads are served from the cached copy; writes wait and retry within
 *       the registry's bound, then fail. Nothing is given up: memberships, ownerships and leases
 *       held stay as they are.
 *   <li>{@link #LOST}: the session is gone (it expired on the ensemble). Memberships of this
 *       process have vanished for everybody else; the registry makes them again under a new session
 *       once it reconnects, and reports {@link #CONNECTED}. Whoever acts on membership (shard
 *       ownership, later) stops on LOST, never on SUSPENDED.
 * </ul>
 */
public enum RegistryState {
  CONNECTED,
  SUSPENDED,
  LOST
}
