package org.netweather.memoryhost;

/** A limit on series creation refused an append; its message names the limit. */
public final class LimitExceededException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LimitExceededException(String message) {
    super(message);
  }
}
