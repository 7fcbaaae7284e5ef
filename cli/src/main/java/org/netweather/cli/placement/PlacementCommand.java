package org.netweather.cli.placement;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.netweather.api.v1.GetPlacementResponse;
import org.netweather.api.v1.MemoryHostState;
import org.netweather.api.v1.PlacedShard;
import org.netweather.api.v1.PlacementMemoryHost;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.ErrorHandler;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.Output;
import org.netweather.client.NetWeatherClient;
import org.netweather.model.shard.Shards;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nws placement show|move}: the memory-host placement of the site's shards. */
@Command(
    name = "placement",
    description =
        "Show and move which memory-host stores each shard (ZooKeeper registry only; see"
            + " docs/placement.md).",
    subcommands = {PlacementCommand.Show.class, PlacementCommand.Move.class})
public class PlacementCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ErrorHandler.USAGE;
  }

  /**
   * Runs {@code call}; a nameserver on the local registry (FAILED_PRECONDITION), or one too old to
   * know placement (UNIMPLEMENTED), is a usage error: the site is not set up for it.
   */
  static int onZooKeeper(CommandSpec spec, Supplier<Integer> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      Status.Code code = e.getStatus().getCode();
      if (code != Status.Code.FAILED_PRECONDITION && code != Status.Code.UNIMPLEMENTED) {
        throw e;
      }
      spec.commandLine()
          .getErr()
          .println(
              spec.qualifiedName()
                  + ": "
                  + (code == Status.Code.UNIMPLEMENTED
                      ? "this nameserver does not know placement (an older NetWeather)"
                      : e.getStatus().getDescription()));
      return ErrorHandler.USAGE;
    }
  }

  /** {@code nws placement show [--shard N] [--host H] [--json]}. */
  @Command(
      name = "show",
      description =
          "Per memory-host: its shards, and whether it is live or since when it is gone; with"
              + " --shard, where those shards are.")
  public static class Show implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Option(
        names = "--shard",
        split = ",",
        paramLabel = "N",
        description = "Only these shards (0 to 4095; repeat or separate with commas).")
    List<Integer> shards = new ArrayList<>();

    @Option(
        names = "--host",
        paramLabel = "MEMORY",
        description = "Only this memory-host (its registration name) and its shards.")
    String host = "";

    @Option(names = "--json", description = "Print a JSON document.")
    boolean json;

    @Override
    public Integer call() {
      shards.forEach(Shards::check);
      try (NetWeatherClient client = connection.open()) {
        return onZooKeeper(spec, () -> print(client.registry().placement(shards, host)));
      }
    }

    private int print(GetPlacementResponse p) {
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Output.json(p));
        out.flush();
        return 0;
      }
      Map<String, PlacementMemoryHost> hosts = new TreeMap<>();
      p.getMemoryHostsList().forEach(h -> hosts.put(h.getName(), h));
      if (!shards.isEmpty()) {
        Output.Table t = new Output.Table("SHARD", "MEMORY-HOST", "STATE");
        for (PlacedShard s : p.getShardsList()) {
          String first = s.getMemoryHostsCount() == 0 ? "" : s.getMemoryHosts(0);
          t.row(
              s.getShard(),
              first.isEmpty() ? "(not placed yet)" : String.join(",", s.getMemoryHostsList()),
              first.isEmpty() ? "" : state(hosts.get(first)));
        }
        t.print(out);
        return 0;
      }
      Output.Table t = new Output.Table("MEMORY-HOST", "STATE", "SHARDS", "ADDRESS");
      for (PlacementMemoryHost h : hosts.values()) {
        t.row(h.getName(), state(h), h.getShardCount(), h.getAddress());
      }
      t.print(out);
      if (!host.isEmpty()) {
        List<Integer> mine = new ArrayList<>();
        p.getShardsList().forEach(s -> mine.add(s.getShard()));
        out.println("shards of " + host + ": " + (mine.isEmpty() ? "none" : ranges(mine)));
      } else {
        long unplaced =
            p.getShardsList().stream().filter(s -> s.getMemoryHostsCount() == 0).count();
        if (unplaced > 0) {
          out.println(unplaced + " shards not placed yet (placed when a series of one arrives)");
        }
      }
      out.flush();
      return 0;
    }
  }

  /** {@code nws placement move --shard N|--host H --to MEMORY}. */
  @Command(
      name = "move",
      description =
          "Place shards on another live memory-host: sensors deliver their new measurements there"
              + " within a minute; what is stored stays where it is.")
  public static class Move implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Option(
        names = "--shard",
        split = ",",
        paramLabel = "N",
        description = "The shards to move (0 to 4095; repeat or separate with commas).")
    List<Integer> shards = new ArrayList<>();

    @Option(
        names = "--host",
        paramLabel = "MEMORY",
        description = "Move every shard placed on this memory-host.")
    String host = "";

    @Option(
        names = "--to",
        required = true,
        paramLabel = "MEMORY",
        description = "The live memory-host (registration name) to place them on.")
    String to;

    @Option(names = "--json", description = "Print a JSON document.")
    boolean json;

    @Override
    public Integer call() {
      if (shards.isEmpty() == host.isEmpty()) {
        throw new IllegalArgumentException(
            "give either --shard N or --host MEMORY (whose shards move), not "
                + (shards.isEmpty() ? "neither" : "both"));
      }
      shards.forEach(Shards::check);
      try (NetWeatherClient client = connection.open()) {
        return onZooKeeper(
            spec,
            () -> {
              List<Integer> moved = client.registry().moveShards(shards, host, to);
              PrintWriter out = spec.commandLine().getOut();
              out.println(
                  json
                      ? JsonWriter.write(Map.of("moved", moved, "to", to))
                      : moved.isEmpty()
                          ? "nothing moved: already on " + to
                          : "moved "
                              + moved.size()
                              + (moved.size() == 1 ? " shard" : " shards")
                              + " to "
                              + to
                              + ": "
                              + ranges(moved));
              out.flush();
              return 0;
            });
      }
    }
  }

  static String state(PlacementMemoryHost h) {
    if (h == null || h.getState() == MemoryHostState.MEMORY_HOST_STATE_UNSPECIFIED) {
      return "unknown";
    }
    if (h.getState() == MemoryHostState.MEMORY_HOST_STATE_LIVE) {
      return "live";
    }
    return h.getGoneSinceMs() == 0
        ? "gone"
        : "gone since " + Instant.ofEpochMilli(h.getGoneSinceMs()).toString();
  }

  /** Sorted shard numbers as ranges: {@code 0-3,7,9-12}. */
  static String ranges(List<Integer> sorted) {
    StringBuilder b = new StringBuilder();
    int i = 0;
    while (i < sorted.size()) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
        j++;
      }
      if (b.length() > 0) {
        b.append(',');
      }
      b.append(sorted.get(i));
      if (j > i) {
        b.append('-').append(sorted.get(j));
      }
      i = j + 1;
    }
    return b.toString();
  }
}
