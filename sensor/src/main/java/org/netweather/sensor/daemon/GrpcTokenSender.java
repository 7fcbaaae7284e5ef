package org.netweather.sensor.daemon;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.PassTokenResponse;
import org.netweather.api.v1.SensorControlGrpc;
import org.netweather.sensor.clique.CliqueToken;
import org.netweather.sensor.clique.CliqueTokens;
import org.netweather.sensor.clique.PassOutcome;
import org.netweather.sensor.clique.TokenSender;

/**
 * Hands clique tokens to other sensors over {@code SensorControl.PassToken}: OK means taken,
 * ABORTED stale, FAILED_PRECONDITION not a member, anything else unreachable.
 */
final class GrpcTokenSender implements TokenSender, AutoCloseable {
  private static final long DEADLINE_MS = 5_000;

  private final PeerDirectory peers;
  private final Function<String, ManagedChannel> channels;
  private final Map<String, ManagedChannel> open = new ConcurrentHashMap<>();

  GrpcTokenSender(PeerDirectory peers, Function<String, ManagedChannel> channels) {
    this.peers = peers;
    this.channels = channels;
  }

  @Override
  public CompletionStage<PassOutcome> send(String member, CliqueToken token) {
    CompletableFuture<PassOutcome> out = new CompletableFuture<>();
    PeerDirectory.Peer p = peers.find(member).orElse(null);
    if (p == null) {
      out.complete(PassOutcome.UNREACHABLE);
      return out;
    }
    SensorControlGrpc.newStub(open.computeIfAbsent(p.control(), channels))
        .withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS)
        .passToken(
            CliqueTokens.toProto(token),
            new io.grpc.stub.StreamObserver<>() {
              @Override
              public void onNext(PassTokenResponse value) {}

              @Override
              public void onError(Throwable t) {
                Status.Code code = Status.fromThrowable(t).getCode();
                out.complete(
                    code == Status.Code.ABORTED
                        ? PassOutcome.STALE
                        : code == Status.Code.FAILED_PRECONDITION
                            ? PassOutcome.NOT_MEMBER
                            : PassOutcome.UNREACHABLE);
              }

              @Override
              public void onCompleted() {
                out.complete(PassOutcome.ACCEPTED);
              }
            });
    return out;
  }

  @Override
  public void close() {
    open.values().forEach(ManagedChannel::shutdownNow);
  }
}
