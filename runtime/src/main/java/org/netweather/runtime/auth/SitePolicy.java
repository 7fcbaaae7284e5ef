package org.netweather.runtime.auth;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendStreamRequest;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.UnregisterRequest;
import org.netweather.model.SeriesName;

/**
 * Who may call what on a secured site: one rule per rpc of every NetWeather service, enforced by
 * {@link AuthorizationInterceptor}. Reads are open to every certified caller; a daemon registers
 * only as its own kind and a sensor only for its own host; a sensor writes only its own host's
 * series ({@code RESOURCE:HOST} and {@code RESOURCE:HOST->PEER}); changes to the site (cliques,
 * activities, ad hoc probes, deletions, retention, forgetting series, swaps) need an admin.
 */
public final class SitePolicy {
  private SitePolicy() {}

  private static final Rule ADMIN = Rule.roles("this call");

  /** The rule of each rpc, by full method name ({@code netweather.v1.Service/Method}). */
  public static Map<String, Rule> rules() {
    Map<String, Rule> r = new HashMap<>();
    String ns = "netweather.v1.Nameserver/";
    r.put(ns + "Register", SitePolicy::register);
    r.put(ns + "Heartbeat", Rule.ANY); // the lease id is the capability
    r.put(ns + "Unregister", SitePolicy::unregister);
    r.put(ns + "Lookup", Rule.ANY);
    r.put(ns + "Search", Rule.ANY);
    r.put(
        ns + "AssignSeries",
        Rule.roles("AssignSeries", Role.SENSOR, Role.MEMORY, Role.FORECASTER, Role.PROXY));
    r.put(ns + "ListSeries", Rule.ANY);
    r.put(ns + "ForgetSeries", ADMIN);
    r.put(ns + "PutClique", ADMIN);
    r.put(ns + "DeleteClique", ADMIN);
    r.put(ns + "ListCliques", Rule.ANY);
    r.put(ns + "WatchCliques", Rule.ANY);
    r.put(ns + "ListMissing", Rule.ANY);
    r.put(ns + "GetPlacement", Rule.ANY);
    r.put(ns + "MoveShards", ADMIN);
    String mem = "netweather.v1.MemoryHost/";
    r.put(mem + "Append", SitePolicy::append);
    r.put(mem + "AppendStream", SitePolicy::appendStream);
    r.put(mem + "Fetch", Rule.ANY);
    r.put(mem + "FetchConsolidated", Rule.ANY);
    r.put(mem + "ListSeries", Rule.ANY);
    r.put(mem + "Watch", Rule.ANY);
    r.put(mem + "DeleteSeries", ADMIN);
    r.put(mem + "Retention", ADMIN);
    String fc = "netweather.v1.Forecaster/";
    r.put(fc + "GetForecast", Rule.ANY);
    r.put(fc + "GetForecasts", Rule.ANY);
    r.put(fc + "WatchForecasts", Rule.ANY);
    r.put(fc + "ForecastPoints", Rule.ANY); // stores nothing
    r.put("netweather.v1.Proxy/GetSnapshot", Rule.ANY);
    r.put("netweather.v1.Proxy/WatchSnapshot", Rule.ANY);
    String sc = "netweather.v1.SensorControl/";
    r.put(sc + "GetStatus", Rule.ANY);
    r.put(sc + "StartActivity", ADMIN);
    r.put(sc + "StopActivity", ADMIN);
    r.put(sc + "PassToken", Rule.roles("PassToken", Role.SENSOR));
    r.put(sc + "Probe", ADMIN);
    r.put("netweather.v1.SwapDispatcher/Status", Rule.ANY);
    r.put("netweather.v1.SwapDispatcher/Force", ADMIN);
    // The standard services every daemon serves.
    r.put("grpc.health.v1.Health/Check", Rule.ANY);
    r.put("grpc.health.v1.Health/Watch", Rule.ANY);
    r.put("grpc.reflection.v1.ServerReflection/ServerReflectionInfo", Rule.ANY);
    r.put("grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", Rule.ANY);
    return r;
  }

  /** A daemon registers as its own kind; a sensor as {@code sensor@HOST} for its own host. */
  static String register(Caller caller, Object request) {
    Registration reg = ((RegisterRequest) request).getRegistration();
    if (caller.role() == Role.ADMIN) {
      return null;
    }
    String kind = reg.getKind();
    Role needed;
    try {
      needed = Role.of(kind);
    } catch (IllegalArgumentException e) {
      return "registering kind=" + kind + " needs an admin certificate";
    }
    if (caller.role() != needed) {
      return "registering kind="
          + kind
          + " needs a "
          + needed.label()
          + " certificate; caller is "
          + caller.key();
    }
    if (needed == Role.SENSOR) {
      String host = reg.getAttributesOrDefault("host", "");
      if (!host.equals(caller.host()) || !reg.getName().equals("sensor@" + caller.host())) {
        return "a sensor registers only as sensor@"
            + caller.host()
            + " with host="
            + caller.host()
            + " (its certificate's host); asked for "
            + reg.getName()
            + " with host="
            + host;
      }
    }
    return null;
  }

  /** Daemons remove only their own registrations ({@code KIND@THEIR-HOST}). */
  static String unregister(Caller caller, Object request) {
    String name = ((UnregisterRequest) request).getName();
    if (caller.role() == Role.ADMIN || name.endsWith("@" + caller.host())) {
      return null;
    }
    return "unregistering " + name + " needs an admin certificate; caller is " + caller.key();
  }

  /** A sensor writes only series of its own host; other roles need admin. */
  static String append(Caller caller, Object request) {
    return writes(caller, "Append", ((AppendRequest) request).getBatchesList());
  }

  /** As {@link #append}, for each request on the stream. */
  static String appendStream(Caller caller, Object request) {
    return writes(caller, "AppendStream", ((AppendStreamRequest) request).getBatchesList());
  }

  private static String writes(Caller caller, String rpc, List<SeriesPoints> batches) {
    if (caller.role() == Role.ADMIN) {
      return null;
    }
    if (caller.role() != Role.SENSOR) {
      return rpc + " needs a sensor or admin certificate; caller is " + caller.key();
    }
    for (SeriesPoints b : batches) {
      String source;
      try {
        source = SeriesName.parse(b.getSeries()).source();
      } catch (IllegalArgumentException e) {
        continue; // the service refuses the name itself, naming what is wrong
      }
      if (!source.equals(caller.host())) {
        return "sensor "
            + caller.host()
            + " may write only series of its own host (RESOURCE:"
            + caller.host()
            + " and RESOURCE:"
            + caller.host()
            + "->PEER), not "
            + b.getSeries();
      }
    }
    return null;
  }
}
