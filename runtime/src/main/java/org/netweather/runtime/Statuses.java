package org.netweather.runtime;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a unary rpc body and maps its failures to a status: {@link IllegalArgumentException} is the
 * caller's fault (INVALID_ARGUMENT), a {@link DataLossException} is stored data that cannot be read
 * (DATA_LOSS), a {@link StatusRuntimeException} passes through, a full disk is back-pressure
 * (RESOURCE_EXHAUSTED, as every daemon answers it, naming what could not be written), and anything
 * else is logged and reported as INTERNAL without leaking a stack trace.
 */
public final class Statuses {
  private static final Logger log = LoggerFactory.getLogger(Statuses.class);

  private Statuses() {}

  public static <T> void respond(StreamObserver<T> observer, Callable<T> body) {
    T result;
    try {
      result = body.call();
    } catch (Throwable e) {
      observer.onError(toStatus(e));
      return;
    }
    observer.onNext(result);
    observer.onCompleted();
  }

  /** The status a failure should be reported as. */
  public static StatusRuntimeException toStatus(Throwable e) {
    if (e instanceof StatusRuntimeException sre) {
      return sre;
    }
    if (e instanceof IllegalArgumentException) {
      return Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException();
    }
    if (e instanceof DataLossException) {
      // The store that found the damage has logged it, once.
      return Status.DATA_LOSS.withDescription(e.getMessage()).asRuntimeException();
    }
    if (isDiskFull(e)) {
      String what = messages(e);
      log.warn("refused a write: {}", what);
      return Status.RESOURCE_EXHAUSTED.withDescription(what).asRuntimeException();
    }
    log.error("internal error", e);
    return Status.INTERNAL.withDescription(String.valueOf(e)).asRuntimeException();
  }

  /**
   * True if {@code e} or one of its causes is an I/O error of a full disk or an exhausted quota
   * (ENOSPC, EDQUOT), which the JDK reports only by the system's message.
   */
  public static boolean isDiskFull(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof IOException) {
        String m = String.valueOf(t.getMessage());
        if (m.contains("No space left on device") || m.contains("Disk quota exceeded")) {
          return true;
        }
      }
    }
    return false;
  }

  /** The messages of {@code e} and its causes, each once, outermost first. */
  private static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String m = t.getMessage();
      if (m != null && !m.isEmpty() && b.indexOf(m) < 0) {
        b.append(b.length() == 0 ? "" : ": ").append(m);
      }
    }
    return b.toString();
  }

  public static StatusRuntimeException notFound(String message) {
    return Status.NOT_FOUND.withDescription(message).asRuntimeException();
  }

  public static StatusRuntimeException unavailable(String message) {
    return Status.UNAVAILABLE.withDescription(message).asRuntimeException();
  }

  public static StatusRuntimeException resourceExhausted(String message) {
    return Status.RESOURCE_EXHAUSTED.withDescription(message).asRuntimeException();
  }

  public static StatusRuntimeException permissionDenied(String message) {
    return Status.PERMISSION_DENIED.withDescription(message).asRuntimeException();
  }

  public static StatusRuntimeException failedPrecondition(String message) {
    return Status.FAILED_PRECONDITION.withDescription(message).asRuntimeException();
  }
}
