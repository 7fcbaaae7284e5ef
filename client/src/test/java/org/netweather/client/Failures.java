package org.netweather.client;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Per-method call counts and queued failures for the fake services. */
final class Failures {
  private final Map<String, Deque<Status>> queued = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

  /** Every call waits this long first, to run past a client's deadline. */
  volatile long delayMs;

  /** The next {@code times} calls of {@code method} fail with {@code status}. */
  void fail(String method, Status status, int times) {
    Deque<Status> q = queued.computeIfAbsent(method, k -> new ArrayDeque<>());
    synchronized (q) {
      for (int i = 0; i < times; i++) {
        q.add(status);
      }
    }
  }

  int calls(String method) {
    AtomicInteger n = calls.get(method);
    return n == null ? 0 : n.get();
  }

  /** Counts a call; true (and the observer failed) if a failure was queued for it. */
  boolean failed(String method, StreamObserver<?> observer) {
    calls.computeIfAbsent(method, k -> new AtomicInteger()).incrementAndGet();
    if (delayMs > 0) {
      try {
        Thread.sleep(delayMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Deque<Status> q = queued.get(method);
    Status s = null;
    if (q != null) {
      synchronized (q) {
        s = q.poll();
      }
    }
    if (s != null) {
      observer.onError(s.asRuntimeException());
      return true;
    }
    return false;
  }
}
