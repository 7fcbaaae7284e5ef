package org.netweather.scheduler.swap;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.ForceSwapRequest;
import org.netweather.api.v1.SwapApplication;
import org.netweather.api.v1.SwapDispatcherGrpc;
import org.netweather.api.v1.SwapStatusRequest;

/**
 * Calls a swap dispatcher ({@code swap.proto}). Each call has the deadline given; failures are the
 * {@code StatusRuntimeException}s listed in the proto, not retried here.
 */
public final class SwapDispatcherClient implements AutoCloseable {
  private final Channel channel;
  private final ManagedChannel owned;
  private final Duration deadline;

  /** A client on {@code channel}, which the caller keeps and closes. */
  public SwapDispatcherClient(Channel channel, Duration deadline) {
    this(channel, null, deadline);
  }

  private SwapDispatcherClient(Channel channel, ManagedChannel owned, Duration deadline) {
    this.channel = channel;
    this.owned = owned;
    this.deadline = deadline;
  }

  /** A client with its own plaintext channel to {@code host:port}; closing it closes that. */
  public static SwapDispatcherClient connect(String host, int port, Duration deadline) {
    ManagedChannel c = ManagedChannelBuilder.forAddress(host, port).usePlaintext().build();
    return new SwapDispatcherClient(c, c, deadline);
  }

  /** Every application, or only {@code application} when it is not empty. */
  public List<SwapApplication> status(String application) {
    return stub()
        .status(SwapStatusRequest.newBuilder().setApplication(application).build())
        .getApplicationsList();
  }

  /** Queues a swap of {@code out} for {@code in} at the application's next swap point. */
  public void force(String application, String out, String in) {
    stub()
        .force(
            ForceSwapRequest.newBuilder()
                .setApplication(application)
                .setOut(out)
                .setIn(in)
                .build());
  }

  private SwapDispatcherGrpc.SwapDispatcherBlockingStub stub() {
    return SwapDispatcherGrpc.newBlockingStub(channel)
        .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    if (owned != null) {
      owned.shutdownNow();
      try {
        owned.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
