package org.netweather.sensor.interference;

import java.io.IOException;
import java.net.InetSocketAddress;

/** Starts a background transfer with a peer at a bounded rate, for interference experiments. */
@FunctionalInterface
public interface TransferDriver {

  /**
   * Starts moving data with {@code peer}.
   *
   * @param bytesPerSecond target rate; 0 or less means as fast as the path allows
   * @throws IOException if the peer cannot be reached
   */
  Transfer start(InetSocketAddress peer, Direction direction, double bytesPerSecond)
      throws IOException;

  /** A running transfer. */
  interface Transfer extends AutoCloseable {

    /** Payload bytes moved so far (sent and handed to the kernel, or received). */
    long bytes();

    /** Stops the transfer; idempotent. */
    @Override
    void close();
  }
}
