package org.netweather.sensor;

/**
 * A skill that measures this host ({@code cpu.availability}, {@code memory.free}).
 *
 * <p>{@link #measure()} may block for the length of an experiment (the CPU skill spins for about a
 * second now and then), so call it from an activity's own executor, never from an event loop.
 */
public interface HostSkill extends Skill {

  /** Takes one measurement. */
  Reading measure() throws Exception;
}
