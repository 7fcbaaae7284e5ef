package org.netweather.registry;

/**
 * This process's membership of a group, from {@link Registry#join}. It lasts while the registry's
 * session does; when the session is lost it is made again, under the new session, as soon as the
 * registry reconnects. Closing it leaves the group.
 */
public interface Presence extends AutoCloseable {
  String group();

  String id();

  /** The session the membership is held by now; changes when it is made again after a loss. */
  long session();

  @Override
  void close();
}
