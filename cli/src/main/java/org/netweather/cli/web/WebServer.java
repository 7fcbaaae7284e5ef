package org.netweather.cli.web;

import com.google.protobuf.util.JsonFormat;
import io.grpc.stub.StreamObserver;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.staticfiles.Location;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.cli.output.TimeArgs;
import org.netweather.client.NetWeatherClient;
import org.netweather.client.Subscription;
import org.netweather.model.SeriesName;

/**
 * The dashboard: pages for the site, a cluster (host table, bandwidth and latency matrices, live
 * from the proxy's snapshot stream as server-sent events) and a series (history, forecast band,
 * method changes, error over time), all read through {@link NetWeatherClient}, so it needs the same
 * credentials as {@code nws} and nothing else.
 */
public final class WebServer implements AutoCloseable {
  private final Javalin app;
  private final LiveViews live;

  private WebServer(Javalin app, LiveViews live) {
    this.app = app;
    this.live = live;
  }

  /** Serves on {@code bind:port} (port 0: any free one) with the default thresholds. */
  public static WebServer start(NetWeatherClient client, String bind, int port, Clock clock) {
    return start(client, bind, port, clock, DashboardSettings.defaults());
  }

  /** Serves on {@code bind:port} (port 0: any free one), colouring by {@code settings}. */
  public static WebServer start(
      NetWeatherClient client, String bind, int port, Clock clock, DashboardSettings settings) {
    LiveViews live = new LiveViews();
    String nameserver = client.nameserver();
    Javalin app =
        Javalin.create(
            config -> {
              config.jetty.host = bind;
              config.jetty.port = port;
              config.staticFiles.add("/web", Location.CLASSPATH);
              config.routes.get("/", ctx -> ctx.html(SiteView.render(client)));
              config.routes.get("/favicon.ico", ctx -> ctx.status(204)); // none, and no 404
              config.routes.get(
                  "/cluster/{name}",
                  ctx -> ctx.html(ClusterView.render(ctx.pathParam("name"), nameserver, settings)));
              config.routes.get(
                  "/series/{name}",
                  ctx -> ctx.html(SeriesView.render(ctx.pathParam("name"), settings)));
              config.routes.get(
                  "/api/cluster/{name}", ctx -> json(ctx, snapshot(client, ctx.pathParam("name"))));
              config.routes.get("/api/series/{name}", ctx -> series(ctx, client, clock));
              config.routes.get("/api/cluster/{name}/events", ctx -> events(ctx, client, live));
              config.routes.exception(
                  DaemonDownException.class,
                  (e, ctx) -> {
                    // The next try (the page reloads itself) dials again instead of failing
                    // fast through gRPC's reconnect back-off.
                    client.resetConnectBackoff();
                    ctx.status(503);
                    if (ctx.path().startsWith("/api/")) {
                      ctx.contentType("text/plain").result(e.getMessage());
                    } else {
                      ctx.html(DownPage.render(e));
                    }
                  });
              config.routes.exception(
                  io.grpc.StatusRuntimeException.class,
                  (e, ctx) ->
                      ctx.status(502)
                          .contentType("text/plain")
                          .result(e.getStatus().getCode() + ": " + e.getStatus().getDescription()));
              config.routes.exception(
                  IllegalArgumentException.class,
                  (e, ctx) -> ctx.status(400).contentType("text/plain").result(e.getMessage()));
            });
    app.start();
    return new WebServer(app, live);
  }

  public int port() {
    return app.port();
  }

  /** Cluster pages being streamed to right now. */
  public int liveViews() {
    return live.viewers.get();
  }

  private static void json(Context ctx, String body) {
    ctx.contentType("application/json").result(body);
  }

  /** A cluster's snapshot as JSON, naming the nameserver or the proxy when it does not answer. */
  private static String snapshot(NetWeatherClient client, String cluster) throws Exception {
    Registration proxy =
        DaemonDownException.calling(
            "nameserver", client.nameserver(), () -> client.proxyFor(cluster));
    ClusterSnapshot s =
        DaemonDownException.calling(
            "proxy of cluster " + cluster, proxy.getAddress(), () -> client.snapshot(cluster));
    return JsonFormat.printer().print(s);
  }

  private static void series(Context ctx, NetWeatherClient client, Clock clock) {
    String name = ctx.pathParam("name");
    SeriesName parsed = SeriesName.parse(name);
    String since = ctx.queryParam("since");
    long from = TimeArgs.parse("since", since == null ? "6h" : since, clock);
    List<SeriesAssignment> where =
        DaemonDownException.calling(
            "nameserver", client.nameserver(), () -> client.directory(name));
    if (where.isEmpty()) {
      ctx.status(404)
          .contentType("text/plain")
          .result("no series " + name + " is stored yet; nws series list shows those that are");
      return;
    }
    String memory = where.get(0).getAddress();
    List<Measurement> points =
        DaemonDownException.calling(
            "memory-host holding " + name,
            memory,
            () -> client.range(name, from, 0).getPointsList());
    json(ctx, SeriesData.json(name, parsed.knownResource(), points, clock.millis()));
  }

  /** Live cluster pages at most; each holds one request thread and one proxy stream. */
  static final int MAX_VIEWERS = 32;

  /** This dashboard's live views: how many, and whether they must end. */
  private static final class LiveViews {
    final AtomicInteger viewers = new AtomicInteger();
    final AtomicBoolean closing = new AtomicBoolean();
  }

  /**
   * Server-sent events of a cluster's snapshots: the proxy's stream, written by this request's own
   * thread until the browser goes away (a write fails), the proxy's stream ends, or the dashboard
   * stops. Written by hand on the servlet stream so that a viewer who left costs one failed write,
   * and the proxy stream is cancelled at once.
   */
  private static void events(Context ctx, NetWeatherClient client, LiveViews live)
      throws Exception {
    AtomicInteger viewers = live.viewers;
    AtomicBoolean closing = live.closing;
    if (viewers.incrementAndGet() > MAX_VIEWERS) {
      viewers.decrementAndGet();
      ctx.status(503).contentType("text/plain").result("too many live views (" + MAX_VIEWERS + ")");
      return;
    }
    BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    Object end = new Object();
    Subscription sub =
        client.watchSnapshot(
            ctx.pathParam("name"),
            Duration.ofMillis(500),
            new StreamObserver<>() {
              @Override
              public void onNext(ClusterSnapshot s) {
                queue.clear(); // only the newest snapshot matters to a viewer
                queue.offer(s);
              }

              @Override
              public void onError(Throwable t) {
                queue.offer(end);
              }

              @Override
              public void onCompleted() {
                queue.offer(end);
              }
            });
    try {
      HttpServletResponse res = ctx.res();
      res.setContentType("text/event-stream");
      res.setCharacterEncoding("UTF-8");
      res.setHeader("Cache-Control", "no-cache");
      OutputStream out = res.getOutputStream();
      while (!closing.get()) {
        Object next = queue.poll(15, TimeUnit.SECONDS);
        if (next == end) {
          break;
        }
        String frame =
            next == null
                ? ": keep-alive\n\n"
                : "event: snapshot\ndata: "
                    + JsonFormat.printer()
                        .omittingInsignificantWhitespace()
                        .print((ClusterSnapshot) next)
                    + "\n\n";
        out.write(frame.getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    } catch (IOException e) {
      // the viewer went away
    } finally {
      sub.close();
      viewers.decrementAndGet();
    }
  }

  @Override
  public void close() {
    live.closing.set(true); // live views end within their next keep-alive
    app.stop();
  }
}
