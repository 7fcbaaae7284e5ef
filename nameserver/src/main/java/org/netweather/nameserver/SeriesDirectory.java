package org.netweather.nameserver;

import java.util.List;
import org.netweather.api.v1.SeriesAssignment;

/**
 * Which memory-host stores each series: what AssignSeries, ListSeries and ForgetSeries answer. The
 * {@link Nameserver} itself is the directory of a site on its own journal (new series go to the
 * live memory-host holding the fewest); a site whose nameservers share a ZooKeeper registry plugs
 * its placement in here instead, through {@link NameserverService}'s constructor (an implementation
 * lives in this package).
 *
 * <p>Errors as the rpcs document them: bad input {@link IllegalArgumentException}, no memory-host
 * to store a series {@link IllegalStateException} (answered UNAVAILABLE).
 */
interface SeriesDirectory {
  /** The memory-host of each series, in the order asked, assigning one where needed. */
  List<SeriesAssignment> assign(List<String> series);

  /** One page of the directory, optionally only series matching {@code pattern}. */
  Page<SeriesAssignment> directory(String pattern, String pageToken, int pageSize);

  /** Drops the entries matching {@code pattern} (on {@code memoryHost} only unless empty). */
  long forget(String pattern, String memoryHost);
}
