package org.netweather.memoryhost;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * The memory-host's write-ahead log: every group of appends is written here and forced to disk
 * once, before any of them is acknowledged, so many concurrent appends share one fsync. Series
 * files are forced at checkpoints, after which the log is emptied.
 *
 * <pre>
 *   frame   = length:int32  crc32(payload):int32  payload
 *   payload = nameLength:int16  name:UTF-8  count:int32  (timestampMs:int64  value:float64)*count
 * </pre>
 *
 * <p>Not thread-safe: only the store's writer thread uses it.
 */
final class WriteAheadLog implements AutoCloseable {
  private final FileChannel channel;
  private ByteBuffer buffer = ByteBuffer.allocate(1 << 16);

  /** A replayed frame. */
  interface Replay {
    void accept(String series, long[] times, double[] values) throws IOException;
  }

  private WriteAheadLog(FileChannel channel) {
    this.channel = channel;
  }

  /** Opens the log in {@code file}, replays its whole frames, and cuts off a torn tail. */
  static WriteAheadLog open(Path file, Replay replay) throws IOException {
    Files.createDirectories(file.getParent());
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    ByteBuffer all = ByteBuffer.allocate((int) ch.size());
    while (all.hasRemaining() && ch.read(all, all.position()) > 0) {
      // keep reading
    }
    all.flip();
    long good = 0;
    while (all.remaining() >= 8) {
      int len = all.getInt();
      int crc = all.getInt();
      if (len < 6 || len > all.remaining()) {
        break;
      }
      byte[] payload = new byte[len];
      all.get(payload);
      CRC32 c = new CRC32();
      c.update(payload);
      if ((int) c.getValue() != crc) {
        break;
      }
      ByteBuffer p = ByteBuffer.wrap(payload);
      byte[] name = new byte[p.getShort() & 0xffff];
      p.get(name);
      int n = p.getInt();
      long[] ts = new long[n];
      double[] vs = new double[n];
      for (int i = 0; i < n; i++) {
        ts[i] = p.getLong();
        vs[i] = p.getDouble();
      }
      replay.accept(new String(name, StandardCharsets.UTF_8), ts, vs);
      good = all.position();
    }
    ch.truncate(good);
    ch.position(good);
    return new WriteAheadLog(ch);
  }

  /** Buffers one frame; {@link #commit()} writes and forces everything buffered. */
  void add(String series, long[] ts, double[] vs, int n) {
    byte[] name = series.getBytes(StandardCharsets.UTF_8);
    int len = 2 + name.length + 4 + n * 16;
    ensure(8 + len);
    int payloadStart = buffer.position() + 8;
    buffer.putInt(len).putInt(0);
    buffer.putShort((short) name.length).put(name).putInt(n);
    for (int i = 0; i < n; i++) {
      buffer.putLong(ts[i]).putDouble(vs[i]);
    }
    CRC32 crc = new CRC32();
    crc.update(buffer.array(), payloadStart, len);
    buffer.putInt(payloadStart - 4, (int) crc.getValue());
  }

  private void ensure(int more) {
    if (buffer.remaining() < more) {
      ByteBuffer b = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + more));
      buffer.flip();
      b.put(buffer);
      buffer = b;
    }
  }

  /** Writes buffered frames and forces them to disk. */
  void commit() throws IOException {
    buffer.flip();
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    buffer.clear();
    channel.force(false);
  }

  long size() throws IOException {
    return channel.size();
  }

  /** Empties the log; call only once everything in it is durable elsewhere. */
  void reset() throws IOException {
    channel.truncate(0);
    channel.position(0);
    channel.force(true);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
