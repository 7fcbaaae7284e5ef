package org.netweather.registry;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on the local registry, plus what only the local one has: its file. */
class LocalRegistryTest extends RegistryContract {
  @TempDir Path dir;

  @Override
  protected Registry openRegistry() throws Exception {
    return LocalRegistry.open(dir);
  }

  @Override
  protected Registry openPeer(Registry first) {
    return ((LocalRegistry) first).peer();
  }

  @Override
  protected void endSession(Registry registry) {
    ((LocalRegistry) registry).loseSession();
  }

  @Test
  void open_onADamagedFile_namesTheFile() throws Exception {
    Files.writeString(dir.resolve(LocalStore.FILE), "{\"daemons\": [");
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, this::open);
    assertTrue(e.getMessage().contains(LocalStore.FILE), e.getMessage());
  }
}
