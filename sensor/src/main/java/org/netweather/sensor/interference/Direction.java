package org.netweather.sensor.interference;

/** Which way data flows between this host and the peer during an interference experiment. */
public enum Direction {
  /** This host sends ({@code interference.send}). */
  SEND("interference.send"),
  /** This host receives ({@code interference.recv}). */
  RECEIVE("interference.recv");

  private final String resource;

  Direction(String resource) {
    this.resource = resource;
  }

  /** The resource name of the skill measuring this direction. */
  public String resource() {
    return resource;
  }
}
