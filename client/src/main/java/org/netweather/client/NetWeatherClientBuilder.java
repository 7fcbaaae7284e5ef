package org.netweather.client;

import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Configures a {@link NetWeatherClient}: the deadline of every call, how often a call that is safe
 * to retry is tried, and how channels to daemons are opened.
 *
 * <pre>{@code
 * NetWeatherClient.forAddress("ns1:8090,ns2:8090")   // one nameserver, or a list to fail over
 *     .deadline(Duration.ofSeconds(5))
 *     .credentials(tlsCredentials)   // default: plaintext
 *     .build();
 * }</pre>
 */
public final class NetWeatherClientBuilder {
  final String target;
  final Channel channel;
  Duration deadline = Duration.ofSeconds(10);
  int maxAttempts = 3;
  Duration backoff = Duration.ofMillis(100);
  NetWeatherClient.Sleeper sleeper = d -> Thread.sleep(d.toMillis());
  ChannelCredentials credentials = InsecureChannelCredentials.create();
  Function<String, ManagedChannel> channels;
  boolean appendStreams = true;
  Duration forecasterRefresh = ShardRouter.DEFAULT_REFRESH;
  ScheduledExecutorService scheduler;
  LongSupplier nanoTime = System::nanoTime;

  NetWeatherClientBuilder(String target, Channel channel) {
    this.target = target;
    this.channel = channel;
  }

  /** Deadline of each call, its retries included (default 10 s). */
  public NetWeatherClientBuilder deadline(Duration deadline) {
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("deadline must be positive: " + deadline);
    }
    this.deadline = deadline;
    return this;
  }

  /** Tries of a call that is safe to retry, the first included (default 3; 1 never retries). */
  public NetWeatherClientBuilder maxAttempts(int maxAttempts) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
    }
    this.maxAttempts = maxAttempts;
    return this;
  }

  /** Pause before the first retry, doubled before each next (default 100 ms). */
  public NetWeatherClientBuilder backoff(Duration backoff, NetWeatherClient.Sleeper sleeper) {
    this.backoff = Objects.requireNonNull(backoff);
    this.sleeper = Objects.requireNonNull(sleeper);
    return this;
  }

  /**
   * Credentials for every channel this client builds (default plaintext): where TLS plugs in.
   * Ignored by channels opened through {@link #channels}.
   */
  public NetWeatherClientBuilder credentials(ChannelCredentials credentials) {
    this.credentials = Objects.requireNonNull(credentials);
    return this;
  }

  /**
   * Opens the channel to a daemon at {@code host:port}, e.g. an in-process one in tests. The client
   * owns and closes what it returns.
   */
  public NetWeatherClientBuilder channels(Function<String, ManagedChannel> channels) {
    this.channels = Objects.requireNonNull(channels);
    return this;
  }

  /**
   * Whether {@link NetWeatherClient#appendOnStream} uses a long-lived stream (default) or one unary
   * Append per batch, as a memory-host without streams gets anyway.
   */
  public NetWeatherClientBuilder appendStreams(boolean appendStreams) {
    this.appendStreams = appendStreams;
    return this;
  }

  /**
   * How long the list of forecasters is used to route forecast calls before it is asked for again
   * (default 5 s); a forecaster that says it does not serve a shard has it asked for at once. See
   * {@link ShardRouter}.
   */
  public NetWeatherClientBuilder forecasterRefresh(Duration refresh) {
    if (refresh.isNegative()) {
      throw new IllegalArgumentException("forecasterRefresh must not be negative: " + refresh);
    }
    this.forecasterRefresh = refresh;
    return this;
  }

  /**
   * Where a forecast watch on a site of several forecasters re-routes its streams and checks the
   * forecaster list; the client does not own it. Default: a thread of the client's own, started by
   * the first such watch and stopped by {@link NetWeatherClient#close()}.
   */
  public NetWeatherClientBuilder scheduler(ScheduledExecutorService scheduler) {
    this.scheduler = Objects.requireNonNull(scheduler);
    return this;
  }

  /** The clock that ages the forecaster list; tests pass a fake one. */
  NetWeatherClientBuilder nanoTime(LongSupplier nanoTime) {
    this.nanoTime = Objects.requireNonNull(nanoTime);
    return this;
  }

  public NetWeatherClient build() {
    return NetWeatherClient.build(this);
  }

  /** A channel to {@code address}, or a {@link FailoverChannel} over a list {@code a:1,b:2}. */
  ManagedChannel open(String address) {
    if (address.indexOf(',') >= 0) {
      return FailoverChannel.open(address, this::openOne);
    }
    return openOne(address);
  }

  private ManagedChannel openOne(String address) {
    if (channels != null) {
      return channels.apply(address);
    }
    return Grpc.newChannelBuilder(address, credentials).build();
  }
}
