package org.netweather.nameserver;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import org.netweather.model.SeriesPattern;

/**
 * An LDAP-style search filter over a registration's attributes, in the spirit of the original NWS
 * nameserver (Wolski, Spring, Hayes, FGCS 15(5), 1999): prefix {@code &} (and), {@code |} (or),
 * {@code !} (not), parentheses for nesting, and comparisons {@code attr=value} (with {@code *}
 * wildcards), {@code attr~=value} (the same, ignoring case), {@code attr>=v}, {@code attr<=v},
 * {@code attr>v} and {@code attr<v}. Comparisons are numeric when both sides are numbers and by
 * string otherwise. A missing attribute matches no comparison.
 *
 * <pre>
 *   (&amp;(kind=sensor)(|(cluster=a)(cluster=b))(!(host=test*))(cores&gt;=4))
 * </pre>
 *
 * A bare comparison without parentheses ({@code kind=memory}) is accepted at the top level, and an
 * empty filter matches everything.
 */
public abstract class Filter {
  private Filter() {}

  /** Whether a registration with these attributes matches. */
  public abstract boolean matches(Map<String, String> attributes);

  /**
   * The names of registrations that can match, from an index of exact attribute values, or null
   * when the filter needs every registration looked at. Every name that matches is in the set; some
   * in it may not match, so {@link #matches} still decides. A sensor looking up its clique members,
   * {@code (&(kind=sensor)(|(host=a)(host=b)...))}, touches those members only.
   *
   * @param exact the names registered with {@code attr} equal to {@code value} (never null)
   */
  abstract Set<String> candidates(BiFunction<String, String, Set<String>> exact);

  /** Longest filter text accepted, in characters. */
  public static final int MAX_LENGTH = 8192;

  /** Deepest nesting of parentheses accepted (the parser and matcher recurse once per level). */
  public static final int MAX_DEPTH = 32;

  /** A filter that matches everything. */
  public static Filter all() {
    return new And(List.of());
  }

  /**
   * Parses a filter.
   *
   * @throws IllegalArgumentException saying what was expected and at which character
   */
  public static Filter parse(String text) {
    String t = text == null ? "" : text.strip();
    if (t.isEmpty()) {
      return all();
    }
    if (t.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "filter is " + t.length() + " characters long; at most " + MAX_LENGTH);
    }
    if (t.charAt(0) != '(') {
      t = "(" + t + ")";
    }
    Parser p = new Parser(t);
    Filter f = p.filter();
    p.skipSpaces();
    if (p.pos != t.length()) {
      throw p.error("unexpected '" + t.charAt(p.pos) + "' after the end of the filter");
    }
    return f;
  }

  private static final class Parser {
    private final String s;
    private int pos;
    private int depth;

    Parser(String s) {
      this.s = s;
    }

    Filter filter() {
      skipSpaces();
      expect('(');
      if (++depth > MAX_DEPTH) {
        throw error("filter is nested more than " + MAX_DEPTH + " deep");
      }
      skipSpaces();
      if (pos >= s.length()) {
        throw error("unexpected end of filter");
      }
      char c = s.charAt(pos);
      Filter f;
      if (c == '&' || c == '|') {
        pos++;
        List<Filter> parts = new ArrayList<>();
        skipSpaces();
        while (pos < s.length() && s.charAt(pos) == '(') {
          parts.add(filter());
          skipSpaces();
        }
        if (parts.isEmpty()) {
          throw error("'" + c + "' needs at least one (filter)");
        }
        f = c == '&' ? new And(parts) : new Or(parts);
      } else if (c == '!') {
        pos++;
        f = new Not(filter());
        skipSpaces();
      } else {
        f = comparison();
      }
      expect(')');
      depth--;
      return f;
    }

    Filter comparison() {
      int start = pos;
      while (pos < s.length() && "=<>~!()".indexOf(s.charAt(pos)) < 0) {
        pos++;
      }
      String attr = s.substring(start, pos).strip();
      if (attr.isEmpty()) {
        throw error("expected an attribute name");
      }
      for (int i = 0; i < attr.length(); i++) {
        char c = attr.charAt(i);
        if (!(Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-')) {
          throw error("attribute name '" + attr + "' has '" + c + "'");
        }
      }
      Op op = operator();
      StringBuilder value = new StringBuilder();
      while (pos < s.length() && s.charAt(pos) != ')') {
        char c = s.charAt(pos);
        if (c == '(') {
          throw error("'(' inside a value (escape it as \\()");
        }
        if (c == '\\' && pos + 1 < s.length()) {
          pos++;
          c = s.charAt(pos);
          value.append(c == '*' ? "\\*" : String.valueOf(c));
        } else {
          value.append(c);
        }
        pos++;
      }
      return new Comparison(attr, op, value.toString().strip());
    }

    Op operator() {
      if (pos >= s.length()) {
        throw error("expected an operator (=, ~=, >=, <=, >, <)");
      }
      for (Op op : Op.values()) {
        if (s.startsWith(op.symbol, pos)) {
          pos += op.symbol.length();
          return op;
        }
      }
      throw error("expected an operator (=, ~=, >=, <=, >, <) but found '" + s.charAt(pos) + "'");
    }

    void expect(char c) {
      if (pos >= s.length()) {
        throw error("expected '" + c + "' but the filter ended");
      }
      if (s.charAt(pos) != c) {
        throw error("expected '" + c + "' but found '" + s.charAt(pos) + "'");
      }
      pos++;
    }

    void skipSpaces() {
      while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
        pos++;
      }
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException(
          "filter '" + s + "': " + what + " at character " + (pos + 1));
    }
  }

  // Longer symbols first, so ">=" is not read as ">".
  private enum Op {
    APPROX("~="),
    GE(">="),
    LE("<="),
    EQ("="),
    GT(">"),
    LT("<");

    final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }
  }

  private static final class Comparison extends Filter {
    private final String attr;
    private final Op op;
    private final String literal; // with escaped stars as plain "*"
    private final Pattern glob; // for EQ with wildcards, and APPROX

    Comparison(String attr, Op op, String value) {
      this.attr = attr;
      this.op = op;
      this.literal = value.replace("\\*", "*");
      boolean wild = value.replace("\\*", "").indexOf('*') >= 0;
      if ((op == Op.EQ || op == Op.APPROX) && (wild || op == Op.APPROX)) {
        // Escaped stars are literal: split on unescaped ones only.
        String regex =
            SeriesPattern.globToRegex(value.replace("\\*", "\u0000")).replace("\u0000", "*");
        this.glob = Pattern.compile(regex, op == Op.APPROX ? Pattern.CASE_INSENSITIVE : 0);
      } else {
        this.glob = null;
      }
    }

    @Override
    public boolean matches(Map<String, String> attributes) {
      String actual = attributes.get(attr);
      if (actual == null) {
        return false;
      }
      switch (op) {
        case EQ:
        case APPROX:
          return glob != null ? glob.matcher(actual).matches() : actual.equals(literal);
        default:
          int c = compare(actual, literal);
          return (op == Op.GE && c >= 0)
              || (op == Op.LE && c <= 0)
              || (op == Op.GT && c > 0)
              || (op == Op.LT && c < 0);
      }
    }

    @Override
    Set<String> candidates(BiFunction<String, String, Set<String>> exact) {
      return op == Op.EQ && glob == null ? exact.apply(attr, literal) : null;
    }

    private static int compare(String a, String b) {
      try {
        return Double.compare(Double.parseDouble(a), Double.parseDouble(b));
      } catch (NumberFormatException e) {
        return a.toLowerCase(Locale.ROOT).compareTo(b.toLowerCase(Locale.ROOT));
      }
    }
  }

  private static final class And extends Filter {
    private final List<Filter> parts;

    And(List<Filter> parts) {
      this.parts = parts;
    }

    @Override
    public boolean matches(Map<String, String> attributes) {
      for (Filter f : parts) {
        if (!f.matches(attributes)) {
          return false;
        }
      }
      return true;
    }

    @Override
    Set<String> candidates(BiFunction<String, String, Set<String>> exact) {
      Set<String> smallest = null; // any one part's candidates bound the whole
      for (Filter f : parts) {
        Set<String> c = f.candidates(exact);
        if (c != null && (smallest == null || c.size() < smallest.size())) {
          smallest = c;
        }
      }
      return smallest;
    }
  }

  private static final class Or extends Filter {
    private final List<Filter> parts;

    Or(List<Filter> parts) {
      this.parts = parts;
    }

    @Override
    public boolean matches(Map<String, String> attributes) {
      for (Filter f : parts) {
        if (f.matches(attributes)) {
          return true;
        }
      }
      return false;
    }

    @Override
    Set<String> candidates(BiFunction<String, String, Set<String>> exact) {
      Set<String> union = new HashSet<>();
      for (Filter f : parts) {
        Set<String> c = f.candidates(exact);
        if (c == null) {
          return null;
        }
        union.addAll(c);
      }
      return union;
    }
  }

  private static final class Not extends Filter {
    private final Filter inner;

    Not(Filter inner) {
      this.inner = inner;
    }

    @Override
    public boolean matches(Map<String, String> attributes) {
      return !inner.matches(attributes);
    }

    @Override
    Set<String> candidates(BiFunction<String, String, Set<String>> exact) {
      return null;
    }
  }
}
