package org.netweather.cli.web;

/**
 * The page shown (with HTTP 503) when a daemon the dashboard reads through does not answer: what is
 * down, the address dialled, gRPC's reason, and what to check. It reloads itself, so a page left
 * open recovers when the daemon is back.
 */
final class DownPage {
  /** Seconds between reloads of a down page. */
  static final int RETRY_SECONDS = 10;

  private DownPage() {}

  static String render(DaemonDownException e) {
    String daemon = Html.escape(e.daemon());
    String address = Html.escape(e.address());
    String body =
        "<h1 id=\"down\">The "
            + daemon
            + " is down</h1>"
            + "<p class=\"down\">The dashboard dialled the <b>"
            + daemon
            + "</b> at <code id=\"address\">"
            + address
            + "</code> and got no answer: <code id=\"reason\">"
            + Html.escape(e.reason())
            + "</code>.</p>"
            + "<p>"
            + hint(e)
            + "</p><p class=\"muted\">This page tries again every "
            + RETRY_SECONDS
            + " s.</p>";
    return Html.page(e.daemon() + " down", body)
        .replace("<head>", "<head><meta http-equiv=\"refresh\" content=\"" + RETRY_SECONDS + "\">");
  }

  private static String hint(DaemonDownException e) {
    String address = Html.escape(e.address());
    if (e.daemon().equals("nameserver")) {
      return "Every page is read through the nameserver. Check that it runs there ("
          + "<code>nws status --nameserver "
          + address
          + "</code>), that the address is the one the dashboard was given (<code>nws web"
          + " --nameserver HOST:PORT</code> or <code>$NWS_NAMESERVER</code>), and, on a secured"
          + " site, that the dashboard has the site's certificates (<code>$NWS_TLS_CERT</code>,"
          + " <code>$NWS_TLS_KEY</code>, <code>$NWS_TLS_CA</code>).";
    }
    return "Check that it runs there and that this machine can reach it: <code>nws status</code>"
        + " lists every registered daemon with its health.";
  }
}
