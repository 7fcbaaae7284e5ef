package org.netweather.memoryhost.store;

import java.io.IOException;
import java.nio.file.Path;

/** The data directory's file system is full; the write that met it stored nothing. */
public final class StoreFullException extends IOException {
  private static final long serialVersionUID = 1L;

  public StoreFullException(Path dir) {
    super(
        "no space left on the device of the data directory "
            + dir
            + "; nothing of this write was stored, retry once space is freed");
  }
}
