package org.netweather.runtime.recordlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The file operations of repairing damaged record files: keeping the file as found aside, and
 * copying runs of valid frames into a file of their own.
 */
final class Repair {
  private Repair() {}

  /**
   * Copies {@code file} to {@code FILE.damaged} beside it (or {@code FILE.damaged-2}, ... if that
   * is taken by earlier damage) and forces the copy; returns the copy's path.
   */
  static Path keepAside(Path file) throws IOException {
    Path aside = file.resolveSibling(file.getFileName() + ".damaged");
    for (int i = 2; Files.exists(aside); i++) {
      aside = file.resolveSibling(file.getFileName() + ".damaged-" + i);
    }
    Files.copy(file, aside, StandardCopyOption.COPY_ATTRIBUTES);
    try (FileChannel ch = FileChannel.open(aside, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    return aside;
  }

  /** Writes the bytes of {@code runs} of {@code src}, back to back, to {@code target}, forced. */
  static void writeRuns(FileChannel src, List<FrameScan.Run> runs, Path target) throws IOException {
    Files.deleteIfExists(target);
    try (FileChannel out =
        FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.allocate(64 << 10);
      for (FrameScan.Run r : runs) {
        long at = r.start();
        while (at < r.end()) {
          buf.clear().limit((int) Math.min(buf.capacity(), r.end() - at));
          int n = src.read(buf, at);
          if (n <= 0) {
            throw new IOException("cannot read " + target + "'s source at byte " + at);
          }
          at += n;
          buf.flip();
          while (buf.hasRemaining()) {
            out.write(buf);
          }
        }
      }
      out.force(true);
    }
  }
}
