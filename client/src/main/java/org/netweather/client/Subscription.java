package org.netweather.client;

import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;

/**
 * An open server stream (a watch). Closing it cancels the stream; the observer then sees {@code
 * onError} with CANCELLED, which a caller that closed it may ignore.
 */
public final class Subscription implements AutoCloseable {
  private volatile ClientCallStreamObserver<?> call;
  private volatile boolean closed;
  private final AutoCloseable streams;

  public Subscription() {
    this.streams = null;
  }

  /** A subscription over several streams that {@code streams} keeps (a routed watch). */
  Subscription(AutoCloseable streams) {
    this.streams = streams;
  }

  /** Wraps {@code observer} so this subscription can cancel the call it is passed to. */
  <ReqT, RespT> ClientResponseObserver<ReqT, RespT> bind(StreamObserver<RespT> observer) {
    return new ClientResponseObserver<>() {
      @Override
      public void beforeStart(ClientCallStreamObserver<ReqT> requestStream) {
        call = requestStream;
        if (closed) {
          requestStream.cancel("subscription closed", null);
        }
      }

      @Override
      public void onNext(RespT value) {
        observer.onNext(value);
      }

      @Override
      public void onError(Throwable t) {
        observer.onError(t);
      }

      @Override
      public void onCompleted() {
        observer.onCompleted();
      }
    };
  }

  @Override
  public void close() {
    closed = true;
    if (streams != null) {
      try {
        streams.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing a watch failed", e);
      }
      return;
    }
    ClientCallStreamObserver<?> c = call;
    if (c != null) {
      c.cancel("subscription closed", null);
    }
  }
}
