package org.netweather.registry;

import java.util.Map;

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

  /**
   * Replaces the member's data without leaving the group (a forecaster publishing the shards it has
   * warm): members listing the group see the new data, never the id missing. The data is also what
   * the membership is made again with after a loss.
   */
  void update(Map<String, String> data);

  @Override
  void close();
}
