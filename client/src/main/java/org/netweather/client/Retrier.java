package org.netweather.client;

import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Runs one call under one deadline, retrying it on the status codes its rpc documents as safe.
 *
 * <p>The deadline covers the call with all its retries, so {@code --timeout 10} still means ten
 * seconds; an attempt gets what is left, and no retry starts once it is spent. Backoff doubles from
 * {@code backoff}, never past the deadline.
 */
final class Retrier {
  /** Nameserver writes: "idempotent and safe to retry on UNAVAILABLE or DEADLINE_EXCEEDED". */
  static final Set<Status.Code> NAMESERVER_WRITE =
      EnumSet.of(Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED);

  /** Memory-host append and reads, forecaster and proxy reads: also on RESOURCE_EXHAUSTED. */
  static final Set<Status.Code> SAFE =
      EnumSet.of(
          Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED, Status.Code.RESOURCE_EXHAUSTED);

  /** Rpcs whose comment promises nothing about a retry. */
  static final Set<Status.Code> NEVER = EnumSet.noneOf(Status.Code.class);

  private final Duration deadline;
  private final int maxAttempts;
  private final Duration backoff;
  private final NetWeatherClient.Sleeper sleeper;

  Retrier(Duration deadline, int maxAttempts, Duration backoff, NetWeatherClient.Sleeper sleeper) {
    this.deadline = deadline;
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
    this.sleeper = sleeper;
  }

  Duration deadline() {
    return deadline;
  }

  /** A fresh deadline for one call. */
  Deadline start() {
    return Deadline.after(deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Runs {@code attempt} (given the call's deadline) until it succeeds or may not be retried. */
  <T> T call(Set<Status.Code> retryOn, Function<Deadline, T> attempt) {
    Deadline d = start();
    long pause = backoff.toMillis();
    for (int n = 1; ; n++) {
      try {
        return attempt.apply(d);
      } catch (StatusRuntimeException e) {
        long left = d.timeRemaining(TimeUnit.MILLISECONDS);
        if (n >= maxAttempts || !retryOn.contains(e.getStatus().getCode()) || left <= pause) {
          throw e;
        }
        try {
          sleeper.sleep(Duration.ofMillis(pause));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
        pause *= 2;
      }
    }
  }
}
