package org.netweather.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.netweather.model.shard.Rendezvous;
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;

/**
 * The forecasters of a test site and which shards each serves: those whose rendezvous owner among
 * the serving forecasters it is, as sharded forecasters settle on.
 */
public final class ContractSite {
  public final List<String> series;
  public final Map<String, ContractForecaster> byName = new LinkedHashMap<>();
  private volatile Set<String> serving = Set.of();

  public ContractSite(List<String> series) {
    this.series = List.copyOf(series);
  }

  public ContractForecaster add(String name) {
    ContractForecaster f =
        new ContractForecaster(name, byName.size() + 1, series, this::servingOwner);
    byName.put(name, f);
    return f;
  }

  public Optional<ContractForecaster> servingOwner(int shard) {
    return Rendezvous.owner(shard, serving).map(byName::get);
  }

  /** Makes {@code names} the serving forecasters and gives each its shards. */
  public void serve(Set<String> names) {
    serving = Set.copyOf(names);
    Map<String, ShardSet> sets = new LinkedHashMap<>();
    for (String n : byName.keySet()) {
      sets.put(n, ShardSet.none());
    }
    for (int s = 0; s < Shards.COUNT; s++) {
      Optional<String> owner = Rendezvous.owner(s, serving);
      if (owner.isPresent()) {
        sets.get(owner.get()).add(s);
      }
    }
    sets.forEach((n, set) -> byName.get(n).serves = set);
  }

  /** The forecaster serving a series now. */
  public ContractForecaster ownerOf(String series) {
    return servingOwner(Shards.of(series)).orElseThrow();
  }

  /** Series of hosts {@code h0 .. h(n-1)}: CPU of each and bandwidth of each ordered pair. */
  public static List<String> hosts(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("cpu.availability:h" + i);
      for (int j = 0; j < n; j++) {
        if (i != j) {
          out.add("tcp.bandwidth:h" + i + "->h" + j);
        }
      }
    }
    return out;
  }
}
