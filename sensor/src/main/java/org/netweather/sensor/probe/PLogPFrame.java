package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

/**
 * The messages of a {@link ProbeMode#PLOGP} connection, in both directions after the hello: an
 * 8-byte header, then {@code length} zero bytes of payload (DATA, DATA_ACK) or none (SEND).
 *
 * <pre>
 *  0       1       2       3       4                               8
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * |  op   |    0 (reserved)       |          length (u32)         |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 *
 *   op  client → server                              server → client
 *   1   DATA      m bytes, no answer                 DATA: the answer to DATA_ACK (m = 0)
 *   2   DATA_ACK  m bytes; answer DATA(0) once         or to SEND (m = length)
 *                 all of them have arrived
 *   3   SEND      no payload; answer DATA(length)
 *
 * length <= MAX_LENGTH (16 MiB); anything else closes the connection.
 * </pre>
 *
 * <p>A 0-byte message is a bare header, as an MPI message is a bare envelope.
 */
final class PLogPFrame {
  static final int HEADER = 8;
  static final int DATA = 1;
  static final int DATA_ACK = 2;
  static final int SEND = 3;
  static final int MAX_LENGTH = 16 << 20;

  private static final int ZEROS_LENGTH = 64 * 1024;

  /** Shared payload: slices of it are written, never its contents changed or its memory freed. */
  private static final ByteBuf ZEROS =
      Unpooled.unreleasableBuffer(Unpooled.directBuffer(ZEROS_LENGTH).writeZero(ZEROS_LENGTH));

  private PLogPFrame() {}

  /** A whole message: header and {@code length} zero bytes unless it is a SEND. */
  static ByteBuf encode(ByteBufAllocator alloc, int op, int length) {
    if (length < 0 || length > MAX_LENGTH) {
      throw new IllegalArgumentException("pLogP message of " + length + " bytes");
    }
    ByteBuf header = alloc.directBuffer(HEADER).writeByte(op).writeZero(3).writeInt(length);
    if (op == SEND || length == 0) {
      return header;
    }
    int parts = 1 + (length + ZEROS_LENGTH - 1) / ZEROS_LENGTH;
    var message = alloc.compositeDirectBuffer(parts).addComponent(true, header);
    for (int left = length; left > 0; left -= ZEROS_LENGTH) {
      message.addComponent(true, ZEROS.slice(0, Math.min(left, ZEROS_LENGTH)));
    }
    return message;
  }

  /** Bytes a message puts on the wire. */
  static long wireBytes(int op, int length) {
    return HEADER + (op == SEND ? 0 : (long) length);
  }

  /**
   * Splits a byte stream into messages without holding their payload. Feed it every buffer that
   * arrives; after {@link #feed} returns true, {@link #op()} and {@link #length()} describe the
   * message just completed.
   */
  static final class Reader {
    private final ByteBuf header = Unpooled.buffer(HEADER, HEADER);
    private int op;
    private int length;
    private long payloadLeft = -1;

    /**
     * Consumes bytes of {@code in} up to the end of the next message.
     *
     * @return true when a message completed
     * @throws IllegalArgumentException on an unknown op or a length over {@link #MAX_LENGTH}
     */
    boolean feed(ByteBuf in) {
      if (payloadLeft < 0) {
        in.readBytes(header, Math.min(in.readableBytes(), header.writableBytes()));
        if (header.isWritable()) {
          return false;
        }
        op = header.readUnsignedByte();
        header.skipBytes(3);
        long n = header.readUnsignedInt();
        header.clear();
        if (op < DATA || op > SEND || n > MAX_LENGTH) {
          throw new IllegalArgumentException("bad pLogP header: op " + op + ", length " + n);
        }
        length = (int) n;
        payloadLeft = op == SEND ? 0 : n;
      }
      int skip = (int) Math.min(payloadLeft, in.readableBytes());
      in.skipBytes(skip);
      payloadLeft -= skip;
      if (payloadLeft > 0) {
        return false;
      }
      payloadLeft = -1;
      return true;
    }

    int op() {
      return op;
    }

    int length() {
      return length;
    }
  }
}
