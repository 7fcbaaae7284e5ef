package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The first 16 bytes a probe client sends on a connection: magic, version, mode and two
 * mode-specific arguments.
 *
 * <pre>
 *  0       1       2       3       4                               8
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * |  'N'  |  'W'  |version| mode  |          arg32 (u32)          |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * |                          arg64 (u64)                          |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 *  8                                                              16
 *
 * All integers big-endian. version = 1.
 *
 *   mode     arg32                                 arg64
 *   ECHO  1  0                                     0
 *   SINK  2  mark interval in microseconds         bytes the client means to send at most
 *            (0: send no marks)                    (the server enforces its own cap as well)
 *   SOURCE 3 rate in KiB/s (0: as fast as          bytes to send before closing
 *            the path allows)
 *   PLOGP 4  0                                     0
 * </pre>
 *
 * <p>After the hello the client's stream is raw payload (ECHO, SINK), nothing (SOURCE), or {@link
 * PLogPFrame}s (PLOGP). A server older than a mode refuses its hello by closing.
 *
 * @param arg32 unsigned 32-bit argument, held in a long
 * @param arg64 64-bit argument, >= 0
 */
public record ProbeHello(ProbeMode mode, long arg32, long arg64) {

  public static final int LENGTH = 16;
  static final int MAGIC = ('N' << 8) | 'W';
  static final int VERSION = 1;

  public ProbeHello {
    if (arg32 < 0 || arg32 > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("arg32 out of u32 range: " + arg32);
    }
    if (arg64 < 0) {
      throw new IllegalArgumentException("arg64 must be >= 0: " + arg64);
    }
  }

  public static ProbeHello echo() {
    return new ProbeHello(ProbeMode.ECHO, 0, 0);
  }

  public static ProbeHello sink(long markIntervalMicros, long maxBytes) {
    return new ProbeHello(ProbeMode.SINK, markIntervalMicros, maxBytes);
  }

  public static ProbeHello source(long kibPerSecond, long totalBytes) {
    return new ProbeHello(ProbeMode.SOURCE, kibPerSecond, totalBytes);
  }

  public static ProbeHello plogp() {
    return new ProbeHello(ProbeMode.PLOGP, 0, 0);
  }

  /** Encodes this hello into a new buffer. */
  public ByteBuf encode(ByteBufAllocator alloc) {
    return alloc
        .buffer(LENGTH)
        .writeShort(MAGIC)
        .writeByte(VERSION)
        .writeByte(mode.code())
        .writeInt((int) arg32)
        .writeLong(arg64);
  }

  /**
   * Decodes a hello from the next 16 readable bytes of {@code in}.
   *
   * @throws IllegalArgumentException if the magic, version or mode is wrong
   */
  public static ProbeHello decode(ByteBuf in) {
    return decode(in, VERSION);
  }

  /** As {@link #decode(ByteBuf)}, for a hello of {@code expectedVersion} (2: sealed). */
  static ProbeHello decode(ByteBuf in, int expectedVersion) {
    int magic = in.readUnsignedShort();
    int version = in.readUnsignedByte();
    int code = in.readUnsignedByte();
    long arg32 = in.readUnsignedInt();
    long arg64 = in.readLong();
    if (magic != MAGIC) {
      throw new IllegalArgumentException(
          "not a probe hello: magic 0x" + Integer.toHexString(magic));
    }
    if (version != expectedVersion) {
      throw new IllegalArgumentException("unsupported probe version " + version);
    }
    ProbeMode mode = ProbeMode.fromCode(code);
    if (mode == null) {
      throw new IllegalArgumentException("unknown probe mode " + code);
    }
    if (arg64 < 0) {
      throw new IllegalArgumentException("negative arg64 " + arg64);
    }
    return new ProbeHello(mode, arg32, arg64);
  }
}
