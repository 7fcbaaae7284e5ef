package org.netweather.model;

/**
 * A parsed series name: {@code RESOURCE:HOST} for one host or {@code RESOURCE:SRC->DST} for an
 * ordered pair. Names use letters, digits, {@code .}, {@code _} and {@code -}.
 *
 * <pre>{@code
 * SeriesName n = SeriesName.parse("tcp.bandwidth:alpha->beta");
 * n.resource();    // "tcp.bandwidth"
 * n.source();      // "alpha"
 * n.destination(); // "beta"
 * }</pre>
 */
public final class SeriesName implements Comparable<SeriesName> {
  /** Longest accepted series name; longer ones are certainly mistakes. */
  public static final int MAX_LENGTH = 256;

  private final String resource;
  private final String source;
  private final String destination; // null for a host series
  private final String text;
  // Looked up once: a store checks every appended value against it.
  private final Resource known;

  private SeriesName(String resource, String source, String destination) {
    this.resource = resource;
    this.known = Resource.of(resource).orElse(null);
    this.source = source;
    this.destination = destination;
    this.text = resource + ":" + source + (destination == null ? "" : "->" + destination);
  }

  /** A host series, e.g. {@code cpu.availability:alpha}. */
  public static SeriesName ofHost(String resource, String host) {
    return parse(resource + ":" + host);
  }

  /** A pair series, e.g. {@code tcp.bandwidth:alpha->beta}. */
  public static SeriesName ofPair(String resource, String source, String destination) {
    return parse(resource + ":" + source + "->" + destination);
  }

  /**
   * Parses a series name.
   *
   * @throws IllegalArgumentException with a message that says what is wrong
   */
  public static SeriesName parse(String text) {
    String problem = problem(text);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    int colon = text.indexOf(':');
    String resource = text.substring(0, colon);
    String rest = text.substring(colon + 1);
    int arrow = rest.indexOf("->");
    if (arrow < 0) {
      return new SeriesName(resource, rest, null);
    }
    return new SeriesName(resource, rest.substring(0, arrow), rest.substring(arrow + 2));
  }

  /** Returns null if {@code text} is a valid series name, otherwise why it is not. */
  public static String problem(String text) {
    if (text == null || text.isEmpty()) {
      return "series name is empty";
    }
    if (text.length() > MAX_LENGTH) {
      return "series name is longer than " + MAX_LENGTH + " characters";
    }
    int colon = text.indexOf(':');
    if (colon < 0) {
      return "series name '" + text + "' has no ':' (expected RESOURCE:HOST or RESOURCE:SRC->DST)";
    }
    String resource = text.substring(0, colon);
    String rest = text.substring(colon + 1);
    String p = nameProblem("resource", resource);
    if (p != null) {
      return "series name '" + text + "': " + p;
    }
    int arrow = rest.indexOf("->");
    if (arrow < 0) {
      p = nameProblem("host", rest);
    } else {
      p = nameProblem("source host", rest.substring(0, arrow));
      if (p == null) {
        p = nameProblem("destination host", rest.substring(arrow + 2));
      }
      if (p == null && rest.substring(0, arrow).equals(rest.substring(arrow + 2))) {
        p = "source and destination are the same host";
      }
    }
    if (p == null) {
      Resource known = Resource.of(resource).orElse(null);
      if (known != null && known.scope() == Resource.Scope.PAIR && arrow < 0) {
        p = resource + " is measured between two hosts (expected " + resource + ":SRC->DST)";
      } else if (known != null && known.scope() == Resource.Scope.HOST && arrow >= 0) {
        p = resource + " is measured at one host (expected " + resource + ":HOST)";
      }
    }
    return p == null ? null : "series name '" + text + "': " + p;
  }

  /** Returns null if {@code name} is a valid resource or host name, otherwise why not. */
  public static String nameProblem(String what, String name) {
    if (name.isEmpty()) {
      return what + " is empty";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!isNameChar(c)) {
        return what
            + " '"
            + name
            + "' has '"
            + c
            + "' (only letters, digits, '.', '_' and '-' are allowed)";
      }
    }
    return null;
  }

  static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '.'
        || c == '_'
        || c == '-';
  }

  public String resource() {
    return resource;
  }

  /** The host of a host series, or the source of a pair series. */
  public String source() {
    return source;
  }

  /** The destination of a pair series, or null for a host series. */
  public String destination() {
    return destination;
  }

  public boolean isPair() {
    return destination != null;
  }

  /** The known resource, or null for a user series. */
  public Resource knownResource() {
    return known;
  }

  /** Returns null if {@code value} is acceptable for this series, otherwise why not. */
  public String checkValue(double value) {
    if (known != null) {
      return known.checkValue(value);
    }
    return Double.isFinite(value) ? null : "must be finite";
  }

  @Override
  public String toString() {
    return text;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SeriesName other && other.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public int compareTo(SeriesName o) {
    return text.compareTo(o.text);
  }
}
