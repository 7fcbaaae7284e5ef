package org.netweather.benchmarks.site;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.AppendStreamRequest;
import org.netweather.api.v1.AppendStreamResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;

/**
 * Sees every append the simulated sensors' deliveries make, unary or on an append stream (an
 * interceptor on their memory-host channels), and keeps the books: per series, the measurements
 * acknowledged (a re-sent point whose first ack was lost is counted once, by timestamp, since each
 * series' points are delivered oldest first from a single spool); per phase, ack latency from the
 * instant the measurement was due, the longest time without an ack, and failed calls; for the
 * sample that is read back at the end, every acknowledged timestamp.
 */
final class AckLedger implements ClientInterceptor {
  private static final String APPEND = MemoryHostGrpc.getAppendMethod().getFullMethodName();
  private static final String APPEND_STREAM =
      MemoryHostGrpc.getAppendStreamMethod().getFullMethodName();

  private final SitePlan plan;
  private final SimClock clock;
  private final LongSupplier nanos;
  private final ForecastDelay forecastDelay;
  private final int[] acked;
  private final long[] lastAckedTs;
  private final Map<Integer, List<Long>> sampleTimestamps = new HashMap<>();
  private final EnumMap<Phase, PhaseStats> phases = new EnumMap<>(Phase.class);
  private final Map<Status.Code, Long> failures = new TreeMap<>();
  private final LongAdder offered = new LongAdder();
  private PhaseStats phase;
  private long seriesAcked;
  private long totalAcked;
  private long reAcked;
  private long foreign;
  private long sentPoints;
  private long stored;
  private long duplicates;
  private long lastAckNanos;
  private long markNanos = Long.MAX_VALUE;
  private long firstAckAfterMark;

  AckLedger(
      SitePlan plan,
      SimClock clock,
      LongSupplier nanos,
      List<Integer> sample,
      ForecastDelay forecastDelay) {
    this.plan = plan;
    this.clock = clock;
    this.nanos = nanos;
    this.forecastDelay = forecastDelay;
    this.acked = new int[plan.series().size()];
    this.lastAckedTs = new long[plan.series().size()];
    sample.forEach(i -> sampleTimestamps.put(i, new ArrayList<>()));
  }

  synchronized void startPhase(Phase p) {
    long now = nanos.getAsLong();
    if (phase != null) {
      phase.endNanos = now;
    }
    phase = new PhaseStats();
    phase.startNanos = now;
    phases.put(p, phase);
    forecastDelay.startPhase(p);
  }

  synchronized void endPhases() {
    phase.endNanos = nanos.getAsLong();
  }

  synchronized Map<Phase, PhaseStats> phases() {
    return new EnumMap<>(phases);
  }

  /** Measurements the sensors spooled. */
  void offered(int n) {
    offered.add(n);
  }

  long offered() {
    return offered.sum();
  }

  /** From now on, {@link #firstAckAfterMark()} is the first ack after this instant. */
  synchronized void mark(long atNanos) {
    markNanos = atNanos;
    firstAckAfterMark = 0;
  }

  synchronized long firstAckAfterMark() {
    return firstAckAfterMark;
  }

  synchronized long seriesAcked() {
    return seriesAcked;
  }

  synchronized long totalAcked() {
    return totalAcked;
  }

  synchronized int ackedOf(int series) {
    return acked[series];
  }

  synchronized List<Long> sampleTimestamps(int series) {
    return List.copyOf(sampleTimestamps.get(series));
  }

  synchronized String books() {
    return String.format(
        "sent in Append calls %d (re-sent after a lost ack: %d), stored by "
            + "the memory-host's answers %d, duplicates %d, points of unknown series %d, failed "
            + "calls %s",
        sentPoints, reAcked, stored, duplicates, foreign, failures);
  }

  private synchronized void onAck(
      List<SeriesPoints> batches, long stored, long duplicates, long started, long now) {
    phase.call.record((now - started) / 1000);
    this.stored += stored;
    this.duplicates += duplicates;
    if (lastAckNanos > 0) {
      phase.longestGapNanos = Math.max(phase.longestGapNanos, now - lastAckNanos);
    }
    lastAckNanos = now;
    if (firstAckAfterMark == 0 && now > markNanos) {
      firstAckAfterMark = now;
    }
    for (SeriesPoints b : batches) {
      int i = plan.indexOf(b.getSeries());
      if (i < 0) {
        foreign += b.getPointsCount();
        continue;
      }
      for (Measurement m : b.getPointsList()) {
        long ts = m.getTimestampMs();
        if (ts <= lastAckedTs[i]) {
          reAcked++;
          continue;
        }
        lastAckedTs[i] = ts;
        if (acked[i]++ == 0) {
          seriesAcked++;
        }
        totalAcked++;
        phase.acked++;
        phase.ack.record((now - clock.realNanosOf(ts)) / 1000);
        List<Long> sample = sampleTimestamps.get(i);
        if (sample != null) {
          sample.add(ts);
        }
        forecastDelay.acked(i, ts, now);
      }
    }
  }

  private synchronized void onFailure(Status status, int points) {
    phase.failedCalls++;
    sentPoints += points;
    failures.merge(status.getCode(), 1L, Long::sum);
  }

  private synchronized void onSent(int points) {
    sentPoints += points;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    ClientCall<Q, R> call = next.newCall(method, options);
    String name = method.getFullMethodName();
    if (name.equals(APPEND)) {
      return new UnaryAppend<>(call);
    }
    if (name.equals(APPEND_STREAM)) {
      return new StreamedAppends<>(call);
    }
    return call;
  }

  private static int points(List<SeriesPoints> batches) {
    int n = 0;
    for (SeriesPoints b : batches) {
      n += b.getPointsCount();
    }
    return n;
  }

  /** The books of one unary Append. */
  private final class UnaryAppend<Q, R>
      extends ForwardingClientCall.SimpleForwardingClientCall<Q, R> {
    private AppendRequest request;
    private AppendResponse response;
    private long started;

    UnaryAppend(ClientCall<Q, R> call) {
      super(call);
    }

    @Override
    public void sendMessage(Q message) {
      request = (AppendRequest) message;
      super.sendMessage(message);
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      started = nanos.getAsLong();
      super.start(
          new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
            @Override
            public void onMessage(R message) {
              response = (AppendResponse) message;
              super.onMessage(message);
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
              long now = nanos.getAsLong();
              int points = request == null ? 0 : points(request.getBatchesList());
              if (status.isOk() && request != null) {
                onSent(points);
                onAck(
                    request.getBatchesList(),
                    response == null ? 0 : response.getStored(),
                    response == null ? 0 : response.getDuplicates(),
                    started,
                    now);
              } else {
                onFailure(status, points);
              }
              super.onClose(status, trailers);
            }
          },
          headers);
    }
  }

  /** The books of one AppendStream: each request is a delivery, answered by its sequence number. */
  private final class StreamedAppends<Q, R>
      extends ForwardingClientCall.SimpleForwardingClientCall<Q, R> {
    private record Sent(AppendStreamRequest request, long started) {}

    private final Map<Long, Sent> waiting = new ConcurrentHashMap<>();

    StreamedAppends(ClientCall<Q, R> call) {
      super(call);
    }

    @Override
    public void sendMessage(Q message) {
      AppendStreamRequest r = (AppendStreamRequest) message;
      waiting.put(r.getSeq(), new Sent(r, nanos.getAsLong()));
      super.sendMessage(message);
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      super.start(
          new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
            @Override
            public void onMessage(R message) {
              AppendStreamResponse a = (AppendStreamResponse) message;
              Sent sent = waiting.remove(a.getSeq());
              if (sent != null) {
                List<SeriesPoints> batches = sent.request().getBatchesList();
                if (a.getCode() == 0) {
                  onSent(points(batches));
                  onAck(
                      batches, a.getStored(), a.getDuplicates(), sent.started(), nanos.getAsLong());
                } else {
                  onFailure(Status.fromCodeValue(a.getCode()), points(batches));
                }
              }
              super.onMessage(message);
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
              for (Sent sent : waiting.values()) {
                onFailure(
                    status.isOk() ? Status.UNAVAILABLE : status,
                    points(sent.request().getBatchesList()));
              }
              waiting.clear();
              super.onClose(status, trailers);
            }
          },
          headers);
    }
  }
}
