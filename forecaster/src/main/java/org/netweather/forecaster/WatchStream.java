package org.netweather.forecaster;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import java.io.IOException;
import java.io.InputStream;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;

/**
 * The memory-host's {@code Watch} call with its responses decoded straight from the wire into a
 * {@link PointBatch}: the generated {@link WatchResponse} would cost a message object per series
 * and a {@code Measurement} per point, built only to be copied into arrays. Same method, same
 * bytes; only the decoding differs. Fields the decoder does not know are skipped, as protobuf does.
 */
final class WatchStream {
  private WatchStream() {}

  // Tags (field number << 3 | wire type) of WatchResponse, SeriesPoints and Measurement fields
  // (memory.proto, series.proto).
  private static final int BATCHES = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int DELETED_SERIES = 2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int CAUGHT_UP = 3 << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int SERIES = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int POINTS = 2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int TIMESTAMP = 1 << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int VALUE = 2 << 3 | WireFormat.WIRETYPE_FIXED64;

  /** {@code netweather.v1.MemoryHost/Watch}, answering {@link PointBatch}es. */
  static final MethodDescriptor<WatchRequest, PointBatch> METHOD =
      MemoryHostGrpc.getWatchMethod().toBuilder(
              ProtoUtils.marshaller(WatchRequest.getDefaultInstance()), new Decoder())
          .build();

  private static final class Decoder implements MethodDescriptor.Marshaller<PointBatch> {
    @Override
    public InputStream stream(PointBatch value) {
      throw new UnsupportedOperationException("the forecaster only receives watch responses");
    }

    @Override
    public PointBatch parse(InputStream stream) {
      try {
        return decode(CodedInputStream.newInstance(stream));
      } catch (IOException e) {
        throw io.grpc.Status.INTERNAL
            .withDescription("malformed watch response: " + e.getMessage())
            .withCause(e)
            .asRuntimeException();
      }
    }
  }

  /** Decodes one serialized {@link WatchResponse}. */
  static PointBatch decode(CodedInputStream in) throws IOException {
    in.setSizeLimit(Integer.MAX_VALUE); // gRPC has bounded the message already
    PointBatch batch = new PointBatch();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == BATCHES) {
        int limit = in.pushLimit(in.readRawVarint32());
        seriesPoints(in, batch);
        in.popLimit(limit);
      } else if (tag == DELETED_SERIES) {
        batch.deleted(in.readStringRequireUtf8());
      } else if (tag == CAUGHT_UP) {
        batch.caughtUp(in.readBool());
      } else if (!in.skipField(tag)) {
        break;
      }
    }
    return batch;
  }

  private static void seriesPoints(CodedInputStream in, PointBatch batch) throws IOException {
    batch.startSeries("");
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == SERIES) {
        batch.nameLast(in.readStringRequireUtf8());
      } else if (tag == POINTS) {
        int limit = in.pushLimit(in.readRawVarint32());
        long t = 0;
        double v = 0;
        for (int f = in.readTag(); f != 0; f = in.readTag()) {
          if (f == TIMESTAMP) {
            t = in.readInt64();
          } else if (f == VALUE) {
            v = in.readDouble();
          } else if (!in.skipField(f)) {
            break;
          }
        }
        batch.add(t, v);
        in.popLimit(limit);
      } else if (!in.skipField(tag)) {
        break;
      }
    }
  }
}
