package org.netweather.scheduler;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.scheduler.cluster.LatencyMatrix;
import org.netweather.scheduler.cluster.LatencyMatrixReader;
import org.netweather.scheduler.frame.SnapshotReader;
import org.netweather.scheduler.pipeline.PipelineReader;
import org.netweather.scheduler.tree.TreeReader;

/** Every file reader refuses bytes that are not UTF-8 text naming the file, as bad input. */
class BinaryInputTest {
  /** Not UTF-8: a lone continuation byte, a truncated sequence, bytes UTF-8 never uses. */
  private static final byte[] BINARY = {
    '{', (byte) 0x80, (byte) 0xC3, 0x28, (byte) 0xFE, (byte) 0xFF, 0, 0x7F
  };

  @TempDir Path dir;

  private void refused(Executable read, Path file) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, read);
    assertTrue(e.getMessage().startsWith(file.toString() + ": not UTF-8 text"), e.getMessage());
  }

  @Test
  void readers_binaryFile_illegalArgumentNamingTheFile() throws Exception {
    Path file = Files.write(dir.resolve("input.json"), BINARY);
    refused(() -> SnapshotReader.read(file), file);
    refused(() -> SnapshotReader.readProto(file), file);
    refused(() -> TreeReader.read(file), file);
    refused(() -> PipelineReader.read(file), file);
    refused(() -> LatencyMatrixReader.read(file, LatencyMatrix.Symmetry.MAX), file);
  }
}
