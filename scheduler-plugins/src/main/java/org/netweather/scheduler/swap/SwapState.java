package org.netweather.scheduler.swap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The iteration state a process registers so a swap can move it: the Java counterpart of the
 * paper's {@code swap_register(&iter)}.
 *
 * <pre>{@code
 * SwapState state = new SwapState();
 * state.register("iter", () -> ints(iter), b -> iter = readInt(b));
 * state.register("strip", () -> doubles(strip), b -> strip = readDoubles(b));
 * }</pre>
 *
 * Wire form of {@link #save()}: for each part in registration order, its UTF name, a 4-byte length
 * and the bytes.
 */
public final class SwapState {
  private record Part(Supplier<byte[]> save, Consumer<byte[]> restore) {}

  private final Map<String, Part> parts = new LinkedHashMap<>();

  public void register(String name, Supplier<byte[]> save, Consumer<byte[]> restore) {
    if (parts.putIfAbsent(name, new Part(save, restore)) != null) {
      throw new IllegalArgumentException("state '" + name + "' registered twice");
    }
  }

  public byte[] save() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      for (Map.Entry<String, Part> e : parts.entrySet()) {
        byte[] b = e.getValue().save().get();
        out.writeUTF(e.getKey());
        out.writeInt(b.length);
        out.write(b);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  public void restore(byte[] saved) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(saved))) {
      while (in.available() > 0) {
        String name = in.readUTF();
        byte[] b = in.readNBytes(in.readInt());
        Part p = parts.get(name);
        if (p == null) {
          throw new IllegalArgumentException("swapped state has unknown part '" + name + "'");
        }
        p.restore().accept(b);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
