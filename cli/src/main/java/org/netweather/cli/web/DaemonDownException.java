package org.netweather.cli.web;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.function.Supplier;

/**
 * A daemon the page needs did not answer: which one, the address dialled and what gRPC said. The
 * dashboard answers it with HTTP 503 and a page naming both, not the bare gRPC status.
 */
final class DaemonDownException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String daemon;
  private final String address;
  private final transient Status status;

  DaemonDownException(String daemon, String address, StatusRuntimeException cause) {
    super(
        daemon + " at " + address + " does not answer (" + describe(cause.getStatus()) + ")",
        cause);
    this.daemon = daemon;
    this.address = address;
    this.status = cause.getStatus();
  }

  /**
   * Runs {@code call} against {@code daemon} at {@code address}; a call that could not reach it
   * (UNAVAILABLE, or no answer before the deadline) becomes this exception, any other error stays
   * as it was.
   */
  static <T> T calling(String daemon, String address, Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      Status.Code code = e.getStatus().getCode();
      if (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED) {
        throw new DaemonDownException(daemon, address, e);
      }
      throw e;
    }
  }

  String daemon() {
    return daemon;
  }

  String address() {
    return address;
  }

  /** What gRPC said, e.g. {@code UNAVAILABLE: io exception}. */
  String reason() {
    return describe(status);
  }

  private static String describe(Status s) {
    return s.getDescription() == null
        ? s.getCode().name()
        : s.getCode() + ": " + s.getDescription();
  }
}
