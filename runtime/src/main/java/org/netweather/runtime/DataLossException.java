package org.netweather.runtime;

import java.io.IOException;

/**
 * Stored data that cannot be read back (a checksum mismatch, an unreadable block): the answer that
 * would have used it is refused with DATA_LOSS rather than given short. The message names what is
 * lost and the file it was in.
 */
public class DataLossException extends IOException {
  private static final long serialVersionUID = 1L;

  public DataLossException(String message, Throwable cause) {
    super(message, cause);
  }
}
