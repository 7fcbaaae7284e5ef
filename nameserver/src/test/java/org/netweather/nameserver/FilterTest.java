package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FilterTest {
  private static final Map<String, String> SENSOR =
      Map.of("kind", "sensor", "host", "alpha.lan", "cluster", "a", "cores", "8");

  @Test
  void parse_equalityWithWildcards_matches() {
    assertTrue(Filter.parse("(host=alpha*)").matches(SENSOR));
    assertTrue(Filter.parse("(host=*.lan)").matches(SENSOR));
    assertFalse(Filter.parse("(host=beta*)").matches(SENSOR));
    assertTrue(Filter.parse("kind=sensor").matches(SENSOR));
    assertTrue(Filter.parse("(host=*)").matches(SENSOR));
    assertFalse(Filter.parse("(owner=*)").matches(SENSOR));
  }

  @Test
  void parse_approx_ignoresCase() {
    assertTrue(Filter.parse("(host~=ALPHA*)").matches(SENSOR));
    assertFalse(Filter.parse("(host=ALPHA*)").matches(SENSOR));
  }

  @Test
  void parse_andOrNot_combine() {
    assertTrue(Filter.parse("(&(kind=sensor)(|(cluster=b)(cluster=a)))").matches(SENSOR));
    assertFalse(Filter.parse("(&(kind=sensor)(!(cluster=a)))").matches(SENSOR));
    assertTrue(Filter.parse("( | (kind=memory) (cores>=8) )").matches(SENSOR));
    assertTrue(Filter.parse("").matches(SENSOR));
  }

  @Test
  void parse_comparisons_areNumericWhenBothSidesAreNumbers() {
    assertTrue(Filter.parse("(cores>=8)").matches(SENSOR));
    assertTrue(Filter.parse("(cores>4)").matches(SENSOR));
    // As strings "8" > "10"; numerically it is not.
    assertFalse(Filter.parse("(cores>10)").matches(SENSOR));
    assertTrue(Filter.parse("(cores<10)").matches(SENSOR));
    assertTrue(Filter.parse("(host<=beta)").matches(SENSOR));
  }

  @Test
  void parse_escapedStar_isLiteral() {
    assertTrue(Filter.parse("(x=a\\*b)").matches(Map.of("x", "a*b")));
    assertFalse(Filter.parse("(x=a\\*b)").matches(Map.of("x", "axxb")));
  }

  @Test
  void parse_malformed_saysWhere() {
    assertMessage("(&(kind=sensor)", "expected ')'");
    assertMessage("(kind sensor)", "attribute name");
    assertMessage("(kind)", "expected an operator");
    assertMessage("(=x)", "expected an attribute name");
    assertMessage("(&)", "needs at least one");
    assertMessage("(a=b))", "after the end");
    assertMessage("(a=(b))", "'(' inside a value");
  }

  private static void assertMessage(String filter, String fragment) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Filter.parse(filter));
    assertTrue(
        e.getMessage().contains(fragment) && e.getMessage().contains("character"), e.getMessage());
  }

  @Test
  void parse_refusesDeepNestingAndHugeText_withAMessage_notAStackOverflow() {
    String deep = "(!".repeat(2000) + "(kind=sensor)" + ")".repeat(2000);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Filter.parse(deep));
    assertTrue(e.getMessage().contains("nested more than 32"), e.getMessage());
    // 32 levels are fine, and so are many siblings at one level.
    String ok = "(!".repeat(16) + "(kind=sensor)" + ")".repeat(16);
    assertFalse(Filter.parse("(!" + ok + ")").matches(SENSOR));
    assertTrue(Filter.parse("(|" + "(kind=x)".repeat(500) + "(kind=sensor))").matches(SENSOR));
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Filter.parse("(kind=" + "x".repeat(Filter.MAX_LENGTH) + ")"));
    assertTrue(e.getMessage().contains("at most 8192"), e.getMessage());
  }
}
