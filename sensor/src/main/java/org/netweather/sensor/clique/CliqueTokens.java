package org.netweather.sensor.clique;

import java.time.Duration;

/**
 * Converts between {@link CliqueToken} and the wire message {@code netweather.v1.CliqueToken}.
 *
 * <p>The wire period is whole seconds; a period under a second is sent as one second.
 */
public final class CliqueTokens {

  private CliqueTokens() {}

  /**
   * Reads a token from its wire form.
   *
   * @throws IllegalArgumentException if the message is malformed (no members, holder out of range,
   *     period not positive); the service answers INVALID_ARGUMENT
   */
  public static CliqueToken fromProto(org.netweather.api.v1.CliqueToken m) {
    return new CliqueToken(
        m.getClique(),
        m.getInstance(),
        m.getSequence(),
        m.getMembersList(),
        m.getHolder(),
        Duration.ofSeconds(m.getPeriodSeconds()),
        m.getOriginator(),
        m.getSentMs());
  }

  public static org.netweather.api.v1.CliqueToken toProto(CliqueToken t) {
    return org.netweather.api.v1.CliqueToken.newBuilder()
        .setClique(t.clique())
        .setInstance(t.instance())
        .setSequence(t.sequence())
        .addAllMembers(t.members())
        .setHolder(t.holder())
        .setPeriodSeconds(Math.max(1, t.period().toSeconds()))
        .setOriginator(t.originator())
        .setSentMs(t.sentMs())
        .build();
  }
}
