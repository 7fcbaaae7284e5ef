package org.netweather.sensor.probe;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletionStage;
import org.netweather.sensor.PeerSkill;
import org.netweather.sensor.Reading;

/** The {@code tcp.latency}, {@code tcp.connect} and {@code tcp.bandwidth} skills over a client. */
public final class TcpProbeSkill implements PeerSkill {

  /** Which measurement. */
  public enum Kind {
    LATENCY("tcp.latency", "ms"),
    CONNECT("tcp.connect", "ms"),
    BANDWIDTH("tcp.bandwidth", "Mbit/s");

    private final String resource;
    private final String unit;

    Kind(String resource, String unit) {
      this.resource = resource;
      this.unit = unit;
    }
  }

  private final Kind kind;
  private final ProbeClient client;

  public TcpProbeSkill(Kind kind, ProbeClient client) {
    this.kind = kind;
    this.client = client;
  }

  @Override
  public String name() {
    return kind.resource;
  }

  @Override
  public String unit() {
    return kind.unit;
  }

  @Override
  public CompletionStage<Reading> measure(InetSocketAddress peer) {
    switch (kind) {
      case LATENCY:
        return client.latency(peer);
      case CONNECT:
        return client.connectTime(peer);
      case BANDWIDTH:
        return client.bandwidth(peer);
      default:
        throw new AssertionError(kind);
    }
  }
}
