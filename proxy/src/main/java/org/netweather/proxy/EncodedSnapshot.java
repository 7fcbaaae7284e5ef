package org.netweather.proxy;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import org.netweather.api.v1.ClusterSnapshot;

/**
 * A {@link ClusterSnapshot} together with its protobuf wire form.
 *
 * <p>A 64-host snapshot is about 400 KB; serializing it costs more than everything else a reply
 * does. The cache encodes each snapshot once, when it builds it, and every reader's reply is a copy
 * of those bytes ({@link #MARSHALLER}); on the wire nothing changes, so clients parse the reply as
 * an ordinary {@code ClusterSnapshot}.
 */
public final class EncodedSnapshot {
  /** Writes the stored bytes; the server never parses an {@code EncodedSnapshot}. */
  static final MethodDescriptor.Marshaller<EncodedSnapshot> MARSHALLER =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(EncodedSnapshot value) {
          return new Wire(value.wire);
        }

        @Override
        public EncodedSnapshot parse(InputStream stream) {
          throw new UnsupportedOperationException("snapshots are only sent, never received");
        }
      };

  private final ClusterSnapshot snapshot;
  private final byte[] wire;
  private final long version;

  EncodedSnapshot(ClusterSnapshot snapshot, long version) {
    this.snapshot = snapshot;
    this.wire = snapshot.toByteArray();
    this.version = version;
  }

  public ClusterSnapshot snapshot() {
    return snapshot;
  }

  /** The cache's data version this snapshot was built from. */
  public long version() {
    return version;
  }

  /** Size of the wire form in bytes. */
  public int size() {
    return wire.length;
  }

  /**
   * The bytes as a stream gRPC can size up front and drain in one copy into its transport buffers.
   */
  private static final class Wire extends ByteArrayInputStream implements KnownLength, Drainable {
    Wire(byte[] bytes) {
      super(bytes);
    }

    @Override
    public synchronized int drainTo(OutputStream target) throws java.io.IOException {
      int n = count - pos;
      target.write(buf, pos, n);
      pos = count;
      return n;
    }
  }
}
