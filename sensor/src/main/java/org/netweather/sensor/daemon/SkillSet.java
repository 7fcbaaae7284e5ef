package org.netweather.sensor.daemon;

import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.netweather.runtime.NamedThreadFactory;
import org.netweather.sensor.PeerSkill;
import org.netweather.sensor.Skill;
import org.netweather.sensor.Ticker;
import org.netweather.sensor.cpu.CpuAvailabilityOptions;
import org.netweather.sensor.cpu.CpuAvailabilitySkill;
import org.netweather.sensor.host.HostMetrics;
import org.netweather.sensor.host.OshiHostMetrics;
import org.netweather.sensor.interference.Direction;
import org.netweather.sensor.interference.InterferenceOptions;
import org.netweather.sensor.interference.InterferenceSkill;
import org.netweather.sensor.interference.MatrixDiagonalKernel;
import org.netweather.sensor.interference.ProbeTransferDriver;
import org.netweather.sensor.memory.MemoryFreeSkill;
import org.netweather.sensor.plogp.PLogPMeasurement;
import org.netweather.sensor.plogp.PLogPSkill;
import org.netweather.sensor.probe.ProbeClient;
import org.netweather.sensor.probe.ProbeClientOptions;
import org.netweather.sensor.probe.ProbeEventLoops;
import org.netweather.sensor.probe.ProbeKey;
import org.netweather.sensor.probe.TcpProbeSkill;

/**
 * Every skill a sensor has, by resource name, with the event loops and probe client they share.
 * Whoever creates a set closes it.
 *
 * <pre>{@code
 * try (SkillSet skills = SkillSet.create()) {
 *   Reading r = ((HostSkill) skills.get("cpu.availability")).measure();
 * }
 * }</pre>
 */
public final class SkillSet implements AutoCloseable {
  private final EventLoopGroup group;
  private final ProbeClient client;
  private final ExecutorService interference;
  private final ExecutorService plogp;
  private final Map<String, Skill> skills;

  private SkillSet(
      EventLoopGroup group,
      ProbeClient client,
      ExecutorService interference,
      ExecutorService plogp,
      Map<String, Skill> skills) {
    this.group = group;
    this.client = client;
    this.interference = interference;
    this.plogp = plogp;
    this.skills = skills;
  }

  public static SkillSet create() {
    return create(null);
  }

  /** The skills, sealing every probe hello with {@code probeKey} (null: unsealed). */
  public static SkillSet create(ProbeKey probeKey) {
    HostMetrics host = new OshiHostMetrics();
    EventLoopGroup group = ProbeEventLoops.create("probe", 1);
    Ticker ticker = Ticker.system();
    ProbeClient client =
        new ProbeClient(group, ProbeClientOptions.defaults().withKey(probeKey), ticker);
    // Interference experiments compute for seconds; one at a time is plenty.
    ExecutorService interference =
        Executors.newSingleThreadExecutor(new NamedThreadFactory("interference"));
    // pLogP timings block on their probe connection; one measurement at a time, within 50 s so
    // that the daemon's 60 s wait for a peer skill sees it end.
    ExecutorService plogp = Executors.newSingleThreadExecutor(new NamedThreadFactory("plogp"));
    Map<String, Skill> skills = new LinkedHashMap<>();
    for (Skill s :
        List.of(
            CpuAvailabilitySkill.create(host, CpuAvailabilityOptions.defaults()),
            new MemoryFreeSkill(host),
            new TcpProbeSkill(TcpProbeSkill.Kind.LATENCY, client),
            new TcpProbeSkill(TcpProbeSkill.Kind.CONNECT, client),
            new TcpProbeSkill(TcpProbeSkill.Kind.BANDWIDTH, client),
            new InterferenceSkill(
                Direction.SEND,
                MatrixDiagonalKernel::paper,
                new ProbeTransferDriver(client),
                ticker,
                InterferenceOptions.defaults(),
                interference),
            new InterferenceSkill(
                Direction.RECEIVE,
                MatrixDiagonalKernel::paper,
                new ProbeTransferDriver(client),
                ticker,
                InterferenceOptions.defaults(),
                interference),
            new PLogPSkill(
                client,
                PLogPMeasurement.Settings.defaults(),
                Duration.ofSeconds(50),
                ticker,
                plogp))) {
      skills.put(s.name(), s);
    }
    return new SkillSet(group, client, interference, plogp, skills);
  }

  public Skill get(String name) {
    return skills.get(name);
  }

  public Map<String, Skill> all() {
    return skills;
  }

  /** The event loops probes run on; the probe server may share them. */
  public EventLoopGroup group() {
    return group;
  }

  /** The network skills a clique holder runs against each peer, in order. */
  List<PeerSkill> cliqueSkills() {
    return List.of(
        (PeerSkill) skills.get("tcp.latency"),
        (PeerSkill) skills.get("tcp.connect"),
        (PeerSkill) skills.get("tcp.bandwidth"));
  }

  @Override
  public void close() {
    client.close();
    interference.shutdownNow();
    plogp.shutdownNow();
    group.shutdownGracefully();
  }
}
