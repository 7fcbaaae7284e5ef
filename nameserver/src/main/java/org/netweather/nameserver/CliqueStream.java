package org.netweather.nameserver;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Consumer;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.WatchCliquesResponse;

/**
 * One WatchCliques stream: sends each clique set as gRPC flow control allows, holds at most {@code
 * maxQueued} that the caller has not taken yet, and ends the stream with RESOURCE_EXHAUSTED past
 * that, rather than buffering without bound for a caller that does not read. Never blocks the
 * nameserver, which hands it updates under its lock.
 */
final class CliqueStream implements Consumer<List<Clique>> {
  private final ServerCallStreamObserver<WatchCliquesResponse> out;
  private final int maxQueued;
  private final ArrayDeque<WatchCliquesResponse> queue = new ArrayDeque<>();
  private Runnable release;
  private boolean ended;
  private boolean released;

  CliqueStream(ServerCallStreamObserver<WatchCliquesResponse> out, int maxQueued) {
    this.out = out;
    this.maxQueued = maxQueued;
    out.setOnReadyHandler(this::drain);
    out.setOnCancelHandler(this::release);
  }

  /**
   * What to undo once the stream is over, whichever way it ends; runs once, at once if the stream
   * is over already.
   */
  void onEnd(Runnable release) {
    synchronized (this) {
      this.release = release;
      if (!ended || released) {
        return;
      }
      released = true;
    }
    release.run();
  }

  @Override
  public void accept(List<Clique> cliques) {
    boolean tooSlow;
    synchronized (this) {
      if (ended) {
        return;
      }
      WatchCliquesResponse r = WatchCliquesResponse.newBuilder().addAllCliques(cliques).build();
      if (queue.isEmpty() && out.isReady()) {
        out.onNext(r);
        return;
      }
      tooSlow = queue.size() >= maxQueued;
      if (tooSlow) {
        ended = true;
        queue.clear();
        out.onError(
            Status.RESOURCE_EXHAUSTED
                .withDescription(
                    maxQueued + " clique updates are waiting for this watcher; watch again")
                .asRuntimeException());
      } else {
        queue.add(r);
      }
    }
    if (tooSlow) {
      release();
    }
  }

  private synchronized void drain() {
    while (!ended && !queue.isEmpty() && out.isReady()) {
      out.onNext(queue.poll());
    }
  }

  private void release() {
    Runnable r;
    synchronized (this) {
      ended = true;
      if (release == null || released) {
        return;
      }
      released = true;
      r = release;
    }
    r.run();
  }
}
