package org.netweather.cli.probe;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.Output;
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
@Command(
    name = "probe",
    description =
        "Run one measurement now from this process and print "
            + "it (nothing is stored). Network skills need --peer, a probe listener.")
public final class ProbeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "SKILL",
      completionCandidates = SkillNames.class,
      description = "One of: ${COMPLETION-CANDIDATES}.")
  String skill;

  @Option(
      names = "--peer",
      paramLabel = "HOST:PORT",
      description = "Probe listener of the other end (a sensor's, or nws probe-server).")
  String peer;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Option(
      names = "--probe-key-file",
      paramLabel = "FILE",
      description = "The site's probe key, when the peer's sensors need sealed hellos.")
  java.nio.file.Path probeKeyFile;

  /** Every skill name, for --help: from a SkillSet, as the check below, so the two agree. */
  static final class SkillNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      try (SkillSet skills = SkillSet.create()) {
        return List.copyOf(skills.all().keySet()).iterator();
      }
    }
  }

  @Override
  public Integer call() throws Exception {
    try (SkillSet skills =
        SkillSet.create(
            probeKeyFile == null
                ? null
                : org.netweather.sensor.probe.ProbeKey.fromFile(
                    probeKeyFile, System::currentTimeMillis))) {
      Skill s = skills.get(skill);
      if (s == null) {
        throw new IllegalArgumentException(
            "SKILL '" + skill + "' is not one of " + skills.all().keySet());
      }
      Reading r;
      if (s instanceof HostSkill h) {
        r = h.measure();
      } else {
        if (peer == null) {
          throw new IllegalArgumentException(skill + " needs --peer HOST:PORT");
        }
        Addresses.HostPort hp = Addresses.parse("--peer", peer);
        InetSocketAddress address = new InetSocketAddress(hp.host(), hp.port());
        if (address.isUnresolved()) {
          throw new IllegalArgumentException("--peer " + peer + ": unknown host " + hp.host());
        }
        try {
          r = ((PeerSkill) s).measure(address).toCompletableFuture().get(120, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (e.getCause() instanceof ConnectException) {
            throw new IllegalStateException(
                skill
                    + ": cannot reach a probe listener at "
                    + peer
                    + " ("
                    + e.getCause().getMessage()
                    + "); is a sensor or nws probe-server "
                    + "running there?");
          }
          throw new IllegalStateException(
              skill + " to " + peer + " failed: " + e.getCause().getMessage());
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
        spec.commandLine()
            .getOut()
            .println(
                skill
                    + " = "
                    + Output.number(r.value())
                    + " "
                    + r.unit()
                    + (r.bytesSpent() > 0 ? " (" + r.bytesSpent() + " bytes)" : ""));
      }
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
