package org.netweather.memoryhost.store;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * One file holding every series' head, written front to back by a background thread and put in
 * place by a rename, so a checkpoint costs appends nothing and an open reads the heads in one
 * sequential pass instead of one database lookup per series.
 *
 * <pre>
 *   "NWHC" version:4
 *   entries    id:8 length:4 head:length     (head as {@code SeriesDb} stores one)
 *   end        -1:8 entries:8 crc32c:4       (CRC of every byte before it)
 * </pre>
 *
 * <p>A file is complete or absent: the new one is written beside the old, synced, then renamed over
 * it, and the directory synced. A file whose end or CRC is wrong fails the open, naming it.
 */
final class HeadCheckpoint {
  static final String FILE = "heads.checkpoint";
  private static final int MAGIC = 0x4e574843;
  private static final int VERSION = 1;

  private HeadCheckpoint() {}

  /** Receives one head read from the file. */
  interface Entry {
    void accept(long id, byte[] head) throws IOException;
  }

  /** Reads the checkpoint in {@code dir}, if there is one; returns the heads read. */
  static long read(Path dir, Entry entry) throws IOException {
    Path file = dir.resolve(FILE);
    InputStream raw;
    try {
      raw = Files.newInputStream(file);
    } catch (NoSuchFileException e) {
      return 0;
    }
    CRC32C crc = new CRC32C();
    try (DataInputStream in =
        new DataInputStream(new CheckedInputStream(new BufferedInputStream(raw, 1 << 20), crc))) {
      if (in.readInt() != MAGIC || in.readInt() != VERSION) {
        throw damaged(file, "not a head checkpoint of this version");
      }
      long n = 0;
      while (true) {
        long id = in.readLong();
        if (id == -1) {
          break;
        }
        int length = in.readInt();
        if (id < 0 || length <= 0 || length > (64 << 20)) {
          throw damaged(file, "entry " + n + " is malformed");
        }
        byte[] head = new byte[length];
        in.readFully(head);
        try {
          entry.accept(id, head);
        } catch (IllegalArgumentException | IllegalStateException e) {
          // Entries are handed over before the CRC at the end is checked: a head that does not
          // decode is damage, named as such.
          throw damaged(file, "entry " + n + ": " + e.getMessage());
        }
        n++;
      }
      long count = in.readLong();
      int expected = (int) crc.getValue();
      int stored = in.readInt();
      if (count != n || stored != expected) {
        throw damaged(file, "its end does not match its entries");
      }
      return n;
    } catch (EOFException e) {
      throw damaged(file, "it ends early");
    }
  }

  private static IOException damaged(Path file, String why) {
    return new IOException(
        "the head checkpoint " + file + " is damaged (" + why + "); the store cannot open");
  }

  /** Writes a new checkpoint beside the current one; {@link #commit} puts it in place. */
  static final class Writer implements AutoCloseable {
    private final Path dir;
    private final Path temp;
    private final FileChannel channel;
    private final CRC32C crc = new CRC32C();
    private final DataOutputStream out;
    private long count;
    private boolean committed;

    Writer(Path dir) throws IOException {
      this.dir = dir;
      this.temp = dir.resolve(FILE + ".new");
      this.channel =
          FileChannel.open(
              temp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE);
      this.out =
          new DataOutputStream(
              new CheckedOutputStream(
                  new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 20), crc));
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
    }

    void add(long id, byte[] head) throws IOException {
      out.writeLong(id);
      out.writeInt(head.length);
      out.write(head);
      count++;
    }

    /** Ends the file, makes it durable and puts it in place of the previous checkpoint. */
    void commit() throws IOException {
      out.writeLong(-1);
      out.writeLong(count);
      out.writeInt((int) crc.getValue());
      out.flush();
      channel.force(true);
      channel.close();
      Files.move(
          temp,
          dir.resolve(FILE),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
        d.force(true);
      }
      committed = true;
    }

    @Override
    public void close() throws IOException {
      if (!committed) {
        channel.close();
        Files.deleteIfExists(temp);
      }
    }
  }
}
