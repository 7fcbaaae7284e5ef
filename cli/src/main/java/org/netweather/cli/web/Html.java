package org.netweather.cli.web;

/** Text made safe inside HTML and the pages' shared frame. */
final class Html {
  private Html() {}

  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /** A path segment in a link (series names hold ':' and '>'). */
  static String segment(String s) {
    return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8)
        .replace("+", "%20");
  }

  static String page(String title, String body, String... scripts) {
    StringBuilder b = new StringBuilder();
    b.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>")
        .append(escape(title))
        .append(" · NetWeather</title>")
        .append("<link rel=\"stylesheet\" href=\"/static/nws.css\">")
        .append("<link rel=\"stylesheet\" href=\"/static/vendor/uPlot.min.css\">")
        .append("</head><body><header><a href=\"/\">NetWeather</a> <span>")
        .append(escape(title))
        .append("</span></header><main>")
        .append(body)
        .append("</main>");
    for (String s : scripts) {
      b.append("<script src=\"").append(s).append("\"></script>");
    }
    return b.append("</body></html>").toString();
  }
}
