package org.netweather.runtime.metrics;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Counts and times every call a daemon's gRPC server finishes, by method and status code:
 *
 * <pre>
 *   netweather_rpc_server_calls_total{daemon, method, code}
 *   netweather_rpc_server_duration_seconds{daemon, method}   (histogram; a stream's whole life)
 * </pre>
 *
 * <p>One instance per registry holds the metrics; {@link #forDaemon} gives each daemon its
 * interceptor. A call the client cancels counts as {@code CANCELLED}.
 *
 * <pre>{@code
 * ServerBuilder<?> b = ...;
 * b.intercept(RpcMetrics.standard().forDaemon("memory"));
 * }</pre>
 */
public final class RpcMetrics {
  private static final double[] BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private static volatile RpcMetrics standard;

  private final Counter calls;
  private final Histogram duration;
  private final LongSupplier nanoTime;

  /** Registers the RPC metrics in {@code registry}; once per registry. */
  public RpcMetrics(PrometheusRegistry registry, LongSupplier nanoTime) {
    this.calls =
        Counter.builder()
            .name("netweather_rpc_server_calls")
            .help("gRPC calls finished by a NetWeather daemon, by method and status code")
            .labelNames("daemon", "method", "code")
            .register(registry);
    this.duration =
        Histogram.builder()
            .name("netweather_rpc_server_duration_seconds")
            .help("Time from a gRPC call's start to its end (a stream's whole life)")
            .labelNames("daemon", "method")
            .classicOnly()
            .classicUpperBounds(BUCKETS)
            .register(registry);
    this.nanoTime = nanoTime;
  }

  /** The metrics in the process's default registry, which the metrics endpoint serves. */
  public static RpcMetrics standard() {
    RpcMetrics s = standard;
    if (s == null) {
      synchronized (RpcMetrics.class) {
        if (standard == null) {
          standard = new RpcMetrics(PrometheusRegistry.defaultRegistry, System::nanoTime);
        }
        s = standard;
      }
    }
    return s;
  }

  /** An interceptor that records every call of the daemon called {@code daemon}. */
  public ServerInterceptor forDaemon(String daemon) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String method = call.getMethodDescriptor().getFullMethodName();
        long start = nanoTime.getAsLong();
        AtomicBoolean recorded = new AtomicBoolean();
        Runnable cancelled = () -> record(daemon, method, Status.Code.CANCELLED, start, recorded);
        ServerCall<Q, R> timed =
            new SimpleForwardingServerCall<>(call) {
              @Override
              public void close(Status status, Metadata trailers) {
                record(daemon, method, status.getCode(), start, recorded);
                super.close(status, trailers);
              }
            };
        return new SimpleForwardingServerCallListener<>(next.startCall(timed, headers)) {
          @Override
          public void onCancel() {
            cancelled.run();
            super.onCancel();
          }
        };
      }
    };
  }

  private void record(
      String daemon, String method, Status.Code code, long start, AtomicBoolean recorded) {
    if (recorded.compareAndSet(false, true)) {
      calls.labelValues(daemon, method, code.name()).inc();
      duration.labelValues(daemon, method).observe((nanoTime.getAsLong() - start) / 1e9);
    }
  }
}
