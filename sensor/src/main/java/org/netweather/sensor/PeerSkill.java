package org.netweather.sensor;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletionStage;

/**
 * A skill that measures the path from this host to a peer sensor's probe port ({@code tcp.latency},
 * {@code tcp.connect}, {@code tcp.bandwidth}, {@code interference.send}, {@code
 * interference.recv}).
 *
 * <p>The stage fails with an {@link java.io.IOException} when the peer does not answer in time.
 */
public interface PeerSkill extends Skill {

  /** Starts one experiment against {@code peer}'s probe port. */
  CompletionStage<Reading> measure(InetSocketAddress peer);
}
