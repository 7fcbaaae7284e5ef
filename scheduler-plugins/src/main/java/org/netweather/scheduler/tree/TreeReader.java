package org.netweather.scheduler.tree;

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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a tree overlay file.
 *
 * <p>The snapshot proto cannot carry this input: IR_s is a property of a (parent, child) pair and
 * {@code PairSnapshot} has no interference field, so the tree has its own JSON format:
 *
 * <pre>{@code
 * {
 *   "description": "free text (optional)",
 *   "root": {
 *     "name": "Lab0",
 *     "computeRate": 9.0645,          compute units per second, no communication
 *     "sendLimit": 10.7,              MB/s out to all children at once (optional: unlimited)
 *     "children": [
 *       {
 *         "name": "Lab3",
 *         "computeRate": 23.86,
 *         "linkRate": 11.1,           MB/s from the parent to this node
 *         "sendInterference": 0.0299, IR_s at the parent for sending here, per MB/s
 *         "recvInterference": 0.0443, IR_r here while receiving, per MB/s (optional: 0)
 *         "sendLimit": ...,           as for the root, if this node has children
 *         "children": [ ... ]         optional
 *       }
 *     ]
 *   }
 * }
 * }</pre>
 *
 * Names must be unique, rates positive and interference rates non-negative. Unknown keys are an
 * error naming each of them with its path, as for snapshot files.
 */
public final class TreeReader {
  private static final Set<String> TOP = Set.of("description", "root");
  private static final Set<String> NODE =
      Set.of(
          "name",
          "computeRate",
          "linkRate",
          "sendInterference",
          "recvInterference",
          "sendLimit",
          "children");

  private TreeReader() {}

  public static TreeNode read(Path file) {
    try {
      return parse(Files.readString(file), file.toString());
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          file + ": not UTF-8 text (a binary file?); expected a JSON tree");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
    }
  }

  /** Parses a tree document; {@code source} names it in error messages. */
  public static TreeNode parse(String json, String source) {
    Struct.Builder doc = Struct.newBuilder();
    try {
      JsonFormat.parser().merge(json, doc);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new IllegalArgumentException(source + ": not a JSON object (" + e.getMessage() + ")");
    }
    List<String> unknown = new ArrayList<>();
    Map<String, Value> top = doc.getFieldsMap();
    top.keySet().stream().filter(k -> !TOP.contains(k)).sorted().forEach(unknown::add);
    Value root = top.get("root");
    if (root != null && root.hasStructValue()) {
      unknownKeys(root.getStructValue(), "root", unknown);
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          source
              + ": unknown field"
              + (unknown.size() > 1 ? "s " : " ")
              + String.join(", ", unknown));
    }
    if (root == null || !root.hasStructValue()) {
      throw new IllegalArgumentException(source + ": root: missing (the tree's root node)");
    }
    try {
      return node(root.getStructValue(), "root", true, new HashSet<>());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage());
    }
  }

  private static void unknownKeys(Struct node, String path, List<String> unknown) {
    for (Map.Entry<String, Value> e : node.getFieldsMap().entrySet()) {
      if (!NODE.contains(e.getKey())) {
        unknown.add(path + "." + e.getKey());
      } else if (e.getKey().equals("children") && e.getValue().hasListValue()) {
        List<Value> kids = e.getValue().getListValue().getValuesList();
        for (int i = 0; i < kids.size(); i++) {
          if (kids.get(i).hasStructValue()) {
            unknownKeys(kids.get(i).getStructValue(), path + ".children[" + i + "]", unknown);
          }
        }
      }
    }
  }

  private static TreeNode node(Struct s, String path, boolean isRoot, Set<String> names) {
    Map<String, Value> f = s.getFieldsMap();
    Value nameValue = f.get("name");
    if (nameValue == null || !nameValue.hasStringValue() || nameValue.getStringValue().isEmpty()) {
      throw new IllegalArgumentException(path + ".name: missing or not a non-empty string");
    }
    String name = nameValue.getStringValue();
    if (!names.add(name)) {
      throw new IllegalArgumentException(path + ".name: '" + name + "' appears twice");
    }
    double compute = number(f, path, "computeRate", Double.NaN);
    if (!(compute > 0)) {
      throw new IllegalArgumentException(path + ".computeRate: missing or not positive");
    }
    double sendLimit = number(f, path, "sendLimit", Double.POSITIVE_INFINITY);
    if (!(sendLimit > 0)) {
      throw new IllegalArgumentException(path + ".sendLimit: must be positive");
    }
    double link = Double.NaN;
    double irS = Double.NaN;
    double irR = 0;
    if (isRoot) {
      for (String key : List.of("linkRate", "sendInterference", "recvInterference")) {
        if (f.containsKey(key)) {
          throw new IllegalArgumentException(path + "." + key + ": the root has no parent link");
        }
      }
    } else {
      link = number(f, path, "linkRate", Double.NaN);
      if (!(link > 0)) {
        throw new IllegalArgumentException(path + ".linkRate: missing or not positive");
      }
      irS = number(f, path, "sendInterference", Double.NaN);
      if (!(irS >= 0)) {
        throw new IllegalArgumentException(path + ".sendInterference: missing or negative");
      }
      irR = number(f, path, "recvInterference", 0);
      if (!(irR >= 0)) {
        throw new IllegalArgumentException(path + ".recvInterference: negative");
      }
    }
    List<TreeNode> children = new ArrayList<>();
    Value kids = f.get("children");
    if (kids != null) {
      if (!kids.hasListValue()) {
        throw new IllegalArgumentException(path + ".children: not a list");
      }
      List<Value> list = kids.getListValue().getValuesList();
      for (int i = 0; i < list.size(); i++) {
        String at = path + ".children[" + i + "]";
        if (!list.get(i).hasStructValue()) {
          throw new IllegalArgumentException(at + ": not an object");
        }
        children.add(node(list.get(i).getStructValue(), at, false, names));
      }
    }
    return new TreeNode(name, compute, link, irS, irR, sendLimit, children);
  }

  private static double number(Map<String, Value> f, String path, String key, double absent) {
    Value v = f.get(key);
    if (v == null) {
      return absent;
    }
    if (!v.hasNumberValue() || !Double.isFinite(v.getNumberValue())) {
      throw new IllegalArgumentException(path + "." + key + ": not a number");
    }
    return v.getNumberValue();
  }
}
