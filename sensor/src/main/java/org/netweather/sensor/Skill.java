package org.netweather.sensor;

/**
 * A kind of measurement a sensor can take, named like the resource it measures.
 *
 * <p>Host skills ({@link HostSkill}) measure this host; peer skills ({@link PeerSkill}) measure the
 * path to another sensor's probe port.
 */
public interface Skill {

  /** The resource measured, e.g. {@code cpu.availability}; the first half of a series name. */
  String name();

  /** The unit of every reading, e.g. {@code fraction}. */
  String unit();
}
