package org.netweather.cli.web;

import com.google.protobuf.util.JsonFormat;
import io.grpc.stub.StreamObserver;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;
import io.javalin.http.staticfiles.Location;
import java.time.Clock;
import java.time.Duration;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.cli.output.TimeArgs;
import org.netweather.client.NetWeatherClient;
import org.netweather.client.Subscription;
import org.netweather.model.Resource;
import org.netweather.model.SeriesName;

/**
 * The dashboard: pages for the site, a cluster (host table, bandwidth and latency matrices, live
 * from the proxy's snapshot stream as server-sent events) and a series (history, forecast band,
 * method changes, error over time), all read through {@link NetWeatherClient}, so it needs the same
 * credentials as {@code nws} and nothing else.
 */
public final class WebServer implements AutoCloseable {
  private final Javalin app;

  private WebServer(Javalin app) {
    this.app = app;
  }

  /** Serves on {@code bind:port} (port 0: any free one). */
  public static WebServer start(NetWeatherClient client, String bind, int port, Clock clock) {
    Javalin app =
        Javalin.create(
            config -> {
              config.jetty.host = bind;
              config.jetty.port = port;
              config.staticFiles.add("/web", Location.CLASSPATH);
              config.routes.get("/", ctx -> ctx.html(SiteView.render(client)));
              config.routes.get("/favicon.ico", ctx -> ctx.status(204)); // none, and no 404
              config.routes.get(
                  "/cluster/{name}", ctx -> ctx.html(ClusterView.render(ctx.pathParam("name"))));
              config.routes.get(
                  "/series/{name}", ctx -> ctx.html(SeriesView.render(ctx.pathParam("name"))));
              config.routes.get(
                  "/api/cluster/{name}",
                  ctx ->
                      json(
                          ctx, JsonFormat.printer().print(client.snapshot(ctx.pathParam("name")))));
              config.routes.get("/api/series/{name}", ctx -> series(ctx, client, clock));
              config.routes.sse("/api/cluster/{name}/events", sse -> watch(sse, client));
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
    return new WebServer(app);
  }

  public int port() {
    return app.port();
  }

  private static void json(Context ctx, String body) {
    ctx.contentType("application/json").result(body);
  }

  private static void series(Context ctx, NetWeatherClient client, Clock clock) {
    String name = ctx.pathParam("name");
    SeriesName parsed = SeriesName.parse(name);
    String since = ctx.queryParam("since");
    long from = TimeArgs.parse("since", since == null ? "6h" : since, clock);
    Resource known = parsed.knownResource();
    json(
        ctx,
        SeriesData.json(
            name, known == null ? "" : known.unit(), client.range(name, from, 0).getPointsList()));
  }

  /** Pushes each snapshot the proxy streams to the browser until either side goes away. */
  private static void watch(SseClient sse, NetWeatherClient client) {
    String cluster = sse.ctx().pathParam("name");
    sse.keepAlive();
    Subscription sub =
        client.watchSnapshot(
            cluster,
            Duration.ofMillis(500),
            new StreamObserver<>() {
              @Override
              public void onNext(ClusterSnapshot s) {
                try {
                  sse.sendEvent(
                      "snapshot", JsonFormat.printer().omittingInsignificantWhitespace().print(s));
                } catch (Exception e) {
                  sse.close(); // the browser went away; onClose cancels the stream
                }
              }

              @Override
              public void onError(Throwable t) {
                sse.close();
              }

              @Override
              public void onCompleted() {
                sse.close();
              }
            });
    sse.onClose(sub::close);
  }

  @Override
  public void close() {
    app.stop();
  }
}
