package org.netweather.memoryhost.store;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * An exclusive lock on a data directory, held while a daemon uses it, so that a second daemon
 * started on the same directory refuses to start instead of corrupting it. The lock file names its
 * holder (process id, host, start time) for the error message; the kernel drops the lock when the
 * holder dies, even by SIGKILL.
 */
public final class DataDirLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Takes the lock or throws an {@link IOException} naming the holder. */
  public static DataDirLock acquire(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve("nws.lock");
    FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      String holder = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
      ch.close();
      throw new IOException(
          "data directory "
              + dir
              + " is in use by another daemon ("
              + (holder.isEmpty() ? "holder unknown" : holder)
              + ")");
    }
    String me =
        "pid "
            + ProcessHandle.current().pid()
            + " on "
            + ManagementFactory.getRuntimeMXBean().getName().replaceFirst("^[0-9]+@", "")
            + " since "
            + Instant.now();
    ch.truncate(0);
    ch.write(ByteBuffer.wrap((me + "\n").getBytes(StandardCharsets.UTF_8)), 0);
    ch.force(false);
    return new DataDirLock(ch, lock);
  }

  @Override
  public void close() throws IOException {
    lock.release();
    channel.close();
  }
}
