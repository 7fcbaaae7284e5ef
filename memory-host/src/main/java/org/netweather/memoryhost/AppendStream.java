package org.netweather.memoryhost;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.netweather.api.v1.AppendStreamRequest;
import org.netweather.api.v1.AppendStreamResponse;
import org.netweather.api.v1.SeriesPoints;

/**
 * One caller's {@code AppendStream}: each request is validated and queued as an Append is, and
 * answered by sequence number once durable. What one stream can make the memory-host hold is
 * bounded: at most {@link #WINDOW} requests are taken ahead of their answers (inbound flow control
 * does the rest), and no more are taken while the caller is not reading its answers.
 */
final class AppendStream implements StreamObserver<AppendStreamRequest> {
  static final int WINDOW = 64;
  // Answered requests are handed back to the transport as credit this many at a time, since each
  // grant is a task (and often a wake-up) for the transport's event loop. At most GRANT - 1
  // answered requests wait for their credit, so at least WINDOW - GRANT + 1 can always be taken.
  static final int GRANT = 16;

  private final Function<List<SeriesPoints>, CompletableFuture<MeasurementStore.Result>> submit;
  private final ServerCallStreamObserver<AppendStreamResponse> out;
  private final Runnable onCancel;
  private final LongSupplier clockMs;
  // All guarded by this: answers come from the writer's completions, requests from the transport.
  private int inFlight;
  private int owed;
  private boolean halfClosed;
  private boolean done;

  /**
   * @param submit validates and queues one request's batches, as Append does
   * @param onCancel run once if the caller cancels the stream or goes away
   * @param clockMs this memory-host's clock, sent in every answer so a caller can tell its own is
   *     wrong
   */
  AppendStream(
      Function<List<SeriesPoints>, CompletableFuture<MeasurementStore.Result>> submit,
      ServerCallStreamObserver<AppendStreamResponse> out,
      Runnable onCancel,
      LongSupplier clockMs) {
    this.submit = submit;
    this.out = out;
    this.onCancel = onCancel;
    this.clockMs = clockMs;
    out.disableAutoRequest();
    out.setOnCancelHandler(this::cancelled);
    out.setOnReadyHandler(this::ready);
    out.request(WINDOW);
  }

  @Override
  public void onNext(AppendStreamRequest req) {
    synchronized (this) {
      if (done) {
        return;
      }
      inFlight++;
    }
    long seq = req.getSeq();
    submit
        .apply(req.getBatchesList())
        .whenComplete(
            (r, err) ->
                answer(
                    err == null
                        ? AppendStreamResponse.newBuilder()
                            .setSeq(seq)
                            .setStored(r.stored())
                            .setDuplicates(r.duplicates())
                            .setServerTimeMs(clockMs.getAsLong())
                            .build()
                        : refusal(seq, MemoryHostService.statusOf(err).getStatus())));
  }

  private AppendStreamResponse refusal(long seq, Status status) {
    return AppendStreamResponse.newBuilder()
        .setSeq(seq)
        .setServerTimeMs(clockMs.getAsLong())
        .setCode(status.getCode().value())
        .setMessage(status.getDescription() == null ? "" : status.getDescription())
        .build();
  }

  private synchronized void answer(AppendStreamResponse response) {
    inFlight--;
    if (done) {
      return;
    }
    try {
      out.onNext(response);
    } catch (IllegalStateException | StatusRuntimeException e) {
      done = true; // closed under us (an authorization refusal, a cancel racing this answer)
      return;
    }
    owed++;
    // Not while the caller is not reading its answers: then its credit waits for onReady.
    if (owed >= GRANT && out.isReady()) {
      out.request(owed);
      owed = 0;
    }
    if (halfClosed && inFlight == 0) {
      done = true;
      out.onCompleted();
    }
  }

  private synchronized void ready() {
    if (owed > 0 && !done) {
      out.request(owed);
      owed = 0;
    }
  }

  private void cancelled() {
    synchronized (this) {
      done = true;
    }
    onCancel.run();
  }

  @Override
  public synchronized void onError(Throwable t) {
    done = true; // the caller went away; what it sent is stored or not, as its answers would say
  }

  @Override
  public synchronized void onCompleted() {
    halfClosed = true;
    if (inFlight == 0 && !done) {
      done = true;
      out.onCompleted();
    }
  }
}
