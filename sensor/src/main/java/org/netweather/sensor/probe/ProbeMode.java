package org.netweather.sensor.probe;

/** What the probe server does with a connection after its hello. */
public enum ProbeMode {
  /** Send every byte back: latency probes. */
  ECHO(1),
  /** Read and discard, answering with progress marks: bandwidth trains and paced sends. */
  SINK(2),
  /** Send payload at a requested rate: the peer's side of a paced receive. */
  SOURCE(3),
  /** Answer framed messages ({@link PLogPFrame}): pLogP overheads, gaps and round trips. */
  PLOGP(4);

  private final int code;

  ProbeMode(int code) {
    this.code = code;
  }

  /** The mode's byte on the wire. */
  public int code() {
    return code;
  }

  /** The mode with wire code {@code code}, or null if there is none. */
  static ProbeMode fromCode(int code) {
    for (ProbeMode m : values()) {
      if (m.code == code) {
        return m;
      }
    }
    return null;
  }
}
