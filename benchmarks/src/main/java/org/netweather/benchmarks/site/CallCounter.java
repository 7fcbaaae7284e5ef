package org.netweather.benchmarks.site;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counts the calls the simulated sensors make, by method (e.g. {@code Heartbeat}). */
final class CallCounter implements ClientInterceptor {
  private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    calls.computeIfAbsent(method.getBareMethodName(), k -> new LongAdder()).increment();
    return next.newCall(method, options);
  }

  /** Calls so far by method name, sorted. */
  Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    calls.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
