package org.netweather.launcher;

import java.util.ArrayList;
import java.util.List;

/**
 * The shell blocks of a Markdown page that follow a marker comment, one command per entry: how
 * {@link ReadmeTourIT} finds the README's commands. Lines continued with a trailing backslash are
 * joined; blank lines and whole-line comments are dropped; trailing comments stay, since the shell
 * ignores them.
 */
final class MarkedBlocks {
  private MarkedBlocks() {}

  /**
   * Every fenced block whose fence follows a line starting with {@code marker}, in page order.
   *
   * @throws IllegalArgumentException if a marker is not followed by a fenced block
   */
  static List<List<String>> after(String markdown, String marker) {
    List<List<String>> blocks = new ArrayList<>();
    String[] lines = markdown.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (!lines[i].strip().startsWith(marker)) {
        continue;
      }
      int fence = i + 1;
      while (fence < lines.length && lines[fence].isBlank()) {
        fence++;
      }
      if (fence == lines.length || !lines[fence].startsWith("```")) {
        throw new IllegalArgumentException(
            "the marker on line " + (i + 1) + " is not followed by a fenced block");
      }
      List<String> commands = new ArrayList<>();
      StringBuilder command = new StringBuilder();
      int j = fence + 1;
      for (; j < lines.length && !lines[j].startsWith("```"); j++) {
        // A continued command's later lines are indented for the reader, not the shell.
        String line = command.length() == 0 ? lines[j].stripTrailing() : lines[j].strip();
        if (command.length() == 0 && (line.isBlank() || line.strip().startsWith("#"))) {
          continue;
        }
        if (line.endsWith("\\")) {
          command.append(line.substring(0, line.length() - 1).stripTrailing()).append(' ');
        } else {
          commands.add(command.append(line).toString().strip());
          command.setLength(0);
        }
      }
      if (j == lines.length) {
        throw new IllegalArgumentException("the block on line " + (fence + 1) + " is not closed");
      }
      blocks.add(commands);
      i = j;
    }
    return blocks;
  }
}
