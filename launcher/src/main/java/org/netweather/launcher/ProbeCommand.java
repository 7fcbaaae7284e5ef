package org.netweather.launcher;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.netweather.clients.cli.JsonWriter;
import org.netweather.clients.cli.Output;
import org.netweather.runtime.Addresses;
import org.netweather.sensor.HostSkill;
import org.netweather.sensor.PeerSkill;
import org.netweather.sensor.Reading;
import org.netweather.sensor.Skill;
import org.netweather.sensor.daemon.SkillSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nws probe SKILL [--peer HOST:PORT]}: one experiment now, from this process. */
@Command(name = "probe", description = "Run one measurement now from this process and print "
    + "it (nothing is stored). Network skills need --peer, a probe listener.")
final class ProbeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SKILL",
      description = "cpu.availability, memory.free, tcp.latency, tcp.connect, tcp.bandwidth, "
          + "interference.send, interference.recv")
  String skill;

  @Option(names = "--peer", paramLabel = "HOST:PORT",
      description = "Probe listener of the other end (a sensor's, or nws probe-server).")
  String peer;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try (SkillSet skills = SkillSet.create()) {
      Skill s = skills.get(skill);
      if (s == null) {
        throw new IllegalArgumentException("SKILL '" + skill + "' is not one of "
            + skills.all().keySet());
      }
      Reading r;
      if (s instanceof HostSkill h) {
        r = h.measure();
      } else {
        if (peer == null) {
          throw new IllegalArgumentException(skill + " needs --peer HOST:PORT");
        }
        Addresses.HostPort hp = Addresses.parse("--peer", peer);
        try {
          r = ((PeerSkill) s).measure(new InetSocketAddress(hp.host(), hp.port()))
              .toCompletableFuture().get(120, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          throw new IllegalStateException(skill + " to " + peer + " failed: "
              + e.getCause().getMessage());
        }
      }
      if (json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("skill", skill);
        m.put("value", r.value());
        m.put("unit", r.unit());
        m.put("bytes", r.bytesSpent());
        if (!r.extras().isEmpty()) {
          m.put("extras", new java.util.TreeMap<>(r.extras()));
        }
        spec.commandLine().getOut().println(JsonWriter.write(m));
      } else {
        spec.commandLine().getOut().println(skill + " = " + Output.number(r.value()) + " "
            + r.unit() + (r.bytesSpent() > 0 ? " (" + r.bytesSpent() + " bytes)" : ""));
      }
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
