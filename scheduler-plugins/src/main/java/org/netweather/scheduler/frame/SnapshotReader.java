package org.netweather.scheduler.frame;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.netweather.api.v1.ClusterSnapshot;

/**
 * Reads a scheduler input file: the proto3 JSON of {@link ClusterSnapshot} (see the package
 * documentation for the layout and units).
 *
 * <p>Unknown fields are rejected, all of them named at once with their paths (for example {@code
 * hosts[1].cpu, pairs[0].bw}), so that a misspelt field is one round trip to fix and never a
 * silently different schedule. The document is first read as a generic JSON tree, checked against
 * the message descriptors, then parsed strictly by {@link JsonFormat}.
 */
public final class SnapshotReader {
  private SnapshotReader() {}

  /** Reads and converts {@code file}; every failure is an {@link IllegalArgumentException}. */
  public static ResourceSnapshot read(Path file) {
    return SnapshotConverter.toModel(readProto(file));
  }

  /** Reads {@code file} as a {@link ClusterSnapshot}, strictly. */
  public static ClusterSnapshot readProto(Path file) {
    String json;
    try {
      json = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          file + ": not UTF-8 text (a binary file?); expected a JSON snapshot");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
    }
    return parse(json, file.toString());
  }

  /** Parses {@code json}; {@code source} names it in error messages. */
  public static ClusterSnapshot parse(String json, String source) {
    Struct.Builder tree = Struct.newBuilder();
    try {
      JsonFormat.parser().merge(json, tree);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new IllegalArgumentException(source + ": not a JSON object (" + e.getMessage() + ")");
    }
    List<String> unknown = new ArrayList<>();
    unknownFields(tree.build(), ClusterSnapshot.getDescriptor(), "", unknown);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          source
              + ": unknown field"
              + (unknown.size() > 1 ? "s " : " ")
              + String.join(", ", unknown)
              + " (a scheduler input is the proto3 JSON of netweather.v1.ClusterSnapshot; put "
              + "application values in a parameters map)");
    }
    ClusterSnapshot.Builder snapshot = ClusterSnapshot.newBuilder();
    try {
      JsonFormat.parser().merge(json, snapshot);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage());
    }
    return snapshot.build();
  }

  private static void unknownFields(
      Struct object, Descriptor type, String path, List<String> unknown) {
    for (Map.Entry<String, Value> e : object.getFieldsMap().entrySet()) {
      String key = e.getKey();
      FieldDescriptor field = field(type, key);
      String at = path.isEmpty() ? key : path + "." + key;
      if (field == null) {
        unknown.add(at);
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !field.isMapField()) {
        Value v = e.getValue();
        if (field.isRepeated() && v.hasListValue()) {
          List<Value> items = v.getListValue().getValuesList();
          for (int i = 0; i < items.size(); i++) {
            if (items.get(i).hasStructValue()) {
              unknownFields(
                  items.get(i).getStructValue(),
                  field.getMessageType(),
                  at + "[" + i + "]",
                  unknown);
            }
          }
        } else if (v.hasStructValue()) {
          unknownFields(v.getStructValue(), field.getMessageType(), at, unknown);
        }
        // Anything else has the wrong JSON type; the strict parse reports it.
      }
    }
  }

  private static FieldDescriptor field(Descriptor type, String key) {
    for (FieldDescriptor f : type.getFields()) {
      if (f.getName().equals(key) || f.getJsonName().equals(key)) {
        return f;
      }
    }
    return null;
  }
}
