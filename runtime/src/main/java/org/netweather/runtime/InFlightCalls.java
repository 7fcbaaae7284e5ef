package org.netweather.runtime;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Counts the unary calls a server is answering, so that a stop waits for those alone. A unary call
 * ends on its own; a stream (a watch, a sensor's append stream) ends only when its peer ends it,
 * which a peer on another host never does because this daemon stops: waiting for streams was the
 * whole grace period of every daemon that another host followed.
 */
final class InFlightCalls implements ServerInterceptor {
  private int unary;

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (call.getMethodDescriptor().getType() != MethodType.UNARY) {
      return next.startCall(call, headers);
    }
    AtomicBoolean done = new AtomicBoolean();
    Runnable end =
        () -> {
          if (done.compareAndSet(false, true)) {
            ended();
          }
        };
    started();
    try {
      ServerCall.Listener<Q> listener =
          next.startCall(
              new SimpleForwardingServerCall<>(call) {
                @Override
                public void close(Status status, Metadata trailers) {
                  try {
                    super.close(status, trailers);
                  } finally {
                    end.run();
                  }
                }
              },
              headers);
      return new SimpleForwardingServerCallListener<>(listener) {
        @Override
        public void onCancel() {
          try {
            super.onCancel();
          } finally {
            end.run();
          }
        }
      };
    } catch (RuntimeException | Error e) {
      end.run();
      throw e;
    }
  }

  private synchronized void started() {
    unary++;
  }

  private synchronized void ended() {
    unary--;
    if (unary == 0) {
      notifyAll();
    }
  }

  /** Waits up to {@code timeoutMs} until no unary call is in flight; true if none is. */
  synchronized boolean awaitUnaryDone(long timeoutMs) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (unary > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }
}
