package org.netweather.sensor.clique;

import java.util.concurrent.CompletionStage;

/**
 * Hands a token to another member; the daemon implements it with gRPC {@code PassToken} (OK to
 * {@link PassOutcome#ACCEPTED}, ABORTED to {@link PassOutcome#STALE}, FAILED_PRECONDITION to {@link
 * PassOutcome#NOT_MEMBER}, anything else to {@link PassOutcome#UNREACHABLE}) with a deadline
 * shorter than {@link CliqueOptions#passTimeout()}.
 */
@FunctionalInterface
public interface TokenSender {

  /** Sends {@code token} to {@code member}; the stage should not fail, but may. */
  CompletionStage<PassOutcome> send(String member, CliqueToken token);
}
