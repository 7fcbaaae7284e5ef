package org.netweather.client;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/**
 * The clock of the daemon that answered, carried on a refusal: a memory-host's append answers hold
 * its clock ({@code server_time_ms}) whether they store or refuse, and the client turns a refused
 * stream answer into a {@link StatusRuntimeException}, so the time rides along in its trailers. A
 * caller whose timestamps were refused as being in the future learns from it by how much its own
 * clock is off.
 */
public final class ServerTime {
  static final Metadata.Key<String> KEY =
      Metadata.Key.of("nws-server-time-ms", Metadata.ASCII_STRING_MARSHALLER);

  private ServerTime() {}

  /** The answering daemon's clock, Unix epoch milliseconds, or 0 if the refusal does not say. */
  public static long of(StatusRuntimeException e) {
    Metadata trailers = e.getTrailers();
    String v = trailers == null ? null : trailers.get(KEY);
    if (v == null) {
      return 0;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException bad) {
      return 0;
    }
  }

  /** {@code status} as an exception that carries {@code serverTimeMs} (if not 0). */
  static StatusRuntimeException refusal(Status status, long serverTimeMs) {
    if (serverTimeMs == 0) {
      return status.asRuntimeException();
    }
    Metadata trailers = new Metadata();
    trailers.put(KEY, Long.toString(serverTimeMs));
    return status.asRuntimeException(trailers);
  }
}
