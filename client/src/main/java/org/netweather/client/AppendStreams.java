package org.netweather.client;

import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.AppendStreamRequest;
import org.netweather.api.v1.AppendStreamResponse;
import org.netweather.api.v1.MemoryHostGrpc;

/**
 * Appends over one long-lived {@code AppendStream} per memory-host, opened on first use and again
 * after it ends. A batch on an open stream costs the memory-host a message, not a call (no call
 * setup, headers or trailers), which is most of what a small batch costs it. Each append waits for
 * its own answer, so a caller sees the same result and the same status codes as a unary Append: a
 * stream that breaks fails every append waiting on it with the stream's status (retry them: appends
 * are idempotent), and one that outlives its deadline is cancelled, so that a fresh stream takes
 * the retry.
 *
 * <p>Thread-safe; appends from several threads share the stream.
 */
final class AppendStreams implements AutoCloseable {
  private final Function<String, Channel> channels;
  private final Map<String, Stream> streams = new HashMap<>();
  private boolean closed;

  AppendStreams(Function<String, Channel> channels) {
    this.channels = channels;
  }

  /**
   * Appends {@code request} on the memory-host at {@code address}, waiting at most {@code timeout}
   * for its answer.
   *
   * @throws StatusRuntimeException with the status Append would have ended with
   */
  AppendResponse append(String address, AppendRequest request, Duration timeout) {
    Stream s = stream(address);
    CompletableFuture<AppendStreamResponse> answer = s.send(request);
    AppendStreamResponse r;
    try {
      r = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      s.cancel("no answer within " + timeout.toMillis() + " ms");
      throw Status.DEADLINE_EXCEEDED
          .withDescription("append on the stream to " + address + " got no answer in " + timeout)
          .asRuntimeException();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Status.CANCELLED.withDescription("interrupted").withCause(e).asRuntimeException();
    } catch (ExecutionException e) {
      throw Status.fromThrowable(e.getCause()).asRuntimeException();
    }
    if (r.getCode() != Status.Code.OK.value()) {
      throw ServerTime.refusal(
          Status.fromCodeValue(r.getCode()).withDescription(r.getMessage()), r.getServerTimeMs());
    }
    return AppendResponse.newBuilder()
        .setStored(r.getStored())
        .setDuplicates(r.getDuplicates())
        .setServerTimeMs(r.getServerTimeMs())
        .build();
  }

  private synchronized Stream stream(String address) {
    if (closed) {
      throw Status.CANCELLED.withDescription("client is closed").asRuntimeException();
    }
    Stream s = streams.get(address);
    if (s == null || s.ended) {
      s = new Stream(address);
      streams.put(address, s);
      MemoryHostGrpc.newStub(channels.apply(address)).appendStream(s);
    }
    return s;
  }

  private synchronized void forget(Stream s) {
    streams.remove(s.address, s);
  }

  @Override
  public void close() {
    List<Stream> open;
    synchronized (this) {
      closed = true;
      open = new ArrayList<>(streams.values());
      streams.clear();
    }
    open.forEach(s -> s.cancel("client closed"));
  }

  /** One stream and the appends waiting for their answers on it. */
  private final class Stream
      implements ClientResponseObserver<AppendStreamRequest, AppendStreamResponse> {
    final String address;
    private final Map<Long, CompletableFuture<AppendStreamResponse>> waiting =
        new ConcurrentHashMap<>();
    private ClientCallStreamObserver<AppendStreamRequest> requests;
    private long nextSeq;
    private StatusRuntimeException endedWith;
    volatile boolean ended;

    Stream(String address) {
      this.address = address;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<AppendStreamRequest> requests) {
      this.requests = requests;
    }

    synchronized CompletableFuture<AppendStreamResponse> send(AppendRequest request) {
      CompletableFuture<AppendStreamResponse> answer = new CompletableFuture<>();
      if (ended) {
        answer.completeExceptionally(endedWith);
        return answer;
      }
      long seq = nextSeq++;
      waiting.put(seq, answer);
      // The request is put on the stream; gRPC buffers it if the transport is not ready, and the
      // callers' own waiting bounds how much that can be.
      requests.onNext(
          AppendStreamRequest.newBuilder()
              .setSeq(seq)
              .addAllBatches(request.getBatchesList())
              .build());
      return answer;
    }

    /**
     * Cancels the stream and ends it at once: the cancel's own error reaches this observer later,
     * and an append sent in between would fail on a cancelled call instead of opening a fresh one.
     */
    void cancel(String why) {
      synchronized (this) {
        if (!markEnded(Status.CANCELLED.withDescription(why).asRuntimeException())) {
          return;
        }
        requests.cancel(why, null);
      }
      failWaiting();
    }

    @Override
    public void onNext(AppendStreamResponse r) {
      CompletableFuture<AppendStreamResponse> answer = waiting.remove(r.getSeq());
      if (answer != null) {
        answer.complete(r);
      }
    }

    @Override
    public void onError(Throwable t) {
      end(Status.fromThrowable(t).asRuntimeException());
    }

    @Override
    public void onCompleted() {
      end(Status.UNAVAILABLE.withDescription("append stream ended").asRuntimeException());
    }

    private void end(StatusRuntimeException why) {
      if (markEnded(why)) {
        failWaiting();
      }
    }

    /** Ends the stream once; false if it had ended already. */
    private synchronized boolean markEnded(StatusRuntimeException why) {
      if (ended) {
        return false;
      }
      endedWith = why;
      ended = true;
      return true;
    }

    private void failWaiting() {
      forget(this);
      // Whatever was waiting fails with the stream's status, as a unary call would have.
      waiting.values().forEach(a -> a.completeExceptionally(endedWith));
      waiting.clear();
    }
  }
}
