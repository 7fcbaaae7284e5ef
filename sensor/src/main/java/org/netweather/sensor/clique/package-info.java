/**
 * The clique token protocol of the original NWS (docs/measurement.md, "Cliques and the token") as a
 * transport-free state machine: one token per clique circulates, only its holder runs network
 * experiments, a lost token is regenerated with a higher instance number, and stale tokens are
 * refused.
 *
 * <p>{@link org.netweather.sensor.clique.CliqueRegistry} is the host's entry point; the daemon
 * implements {@link org.netweather.sensor.clique.TokenSender} over gRPC {@code PassToken} and
 * {@link org.netweather.sensor.clique.CliqueExperiments} over the probe skills, and maps {@link
 * org.netweather.sensor.clique.CliqueToken} to the proto with {@link
 * org.netweather.sensor.clique.CliqueTokens}. Time comes from an injected {@link
 * org.netweather.sensor.clique.CliqueScheduler}, so tests run whole cliques on a fake clock.
 */
package org.netweather.sensor.clique;
