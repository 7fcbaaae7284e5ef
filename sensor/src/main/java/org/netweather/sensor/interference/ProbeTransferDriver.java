package org.netweather.sensor.interference;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netweather.sensor.probe.ProbeClient;
import org.netweather.sensor.probe.ProbeTransfer;

/** Runs interference transfers over a {@link ProbeClient} against a peer's probe server. */
public final class ProbeTransferDriver implements TransferDriver {

  private final ProbeClient client;

  public ProbeTransferDriver(ProbeClient client) {
    this.client = client;
  }

  @Override
  public Transfer start(InetSocketAddress peer, Direction direction, double bytesPerSecond)
      throws IOException {
    ProbeTransfer t;
    try {
      t =
          client
              .startTransfer(peer, direction == Direction.SEND, bytesPerSecond)
              .get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting to " + peer, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("cannot start a transfer with " + peer, e);
    }
    return new Transfer() {
      @Override
      public long bytes() {
        return t.bytes();
      }

      @Override
      public void close() {
        t.close();
      }
    };
  }
}
