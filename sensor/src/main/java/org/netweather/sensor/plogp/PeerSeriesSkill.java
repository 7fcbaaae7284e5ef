package org.netweather.sensor.plogp;

import java.util.Map;
import org.netweather.sensor.PeerSkill;
import org.netweather.sensor.Reading;

/**
 * A peer skill whose one experiment yields several series: its reading carries them, and the daemon
 * stores each as {@code RESOURCE:SELF->PEER} instead of the skill's own name.
 */
public interface PeerSeriesSkill extends PeerSkill {

  /** The values of {@code reading} by resource name (letters, digits, '.', '_', '-'). */
  Map<String, Double> series(Reading reading);
}
