package org.netweather.registry;

import java.util.regex.Pattern;

/** What a name or key may hold: it becomes a znode name, so no {@code /} and nothing odd. */
public final class Names {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@:-]{1,200}");
  private static final Pattern KEY =
      Pattern.compile("[A-Za-z0-9._-]{1,100}(/[A-Za-z0-9._-]{1,100}){0,7}");

  private Names() {}

  public static String check(String what, String name) {
    if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
      throw new IllegalArgumentException(
          what + " '" + name + "' must be 1 to 200 letters, digits, '.', '_', '@', ':' or '-'");
    }
    return name;
  }

  public static String checkKey(String key) {
    if (key == null || !KEY.matcher(key).matches() || key.matches("(.*/)?\\.{1,2}(/.*)?")) {
      throw new IllegalArgumentException(
          "key '"
              + key
              + "' must be up to 8 '/'-separated parts of letters, digits, '.', '_', '-'");
    }
    return key;
  }
}
