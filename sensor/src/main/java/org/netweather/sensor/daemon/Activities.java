package org.netweather.sensor.daemon;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Activity;
import org.netweather.model.SeriesName;
import org.netweather.sensor.HostSkill;
import org.netweather.sensor.PeerSkill;
import org.netweather.sensor.Reading;
import org.netweather.sensor.Skill;
import org.netweather.sensor.plogp.PeerSeriesSkill;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodic activities outside cliques: host skills every period, and network skills against a fixed
 * list of peers. Host skills run on one thread, so a CPU spin probe never competes with another
 * experiment of this sensor. A skill with several series per experiment ({@link PeerSeriesSkill},
 * such as {@code plogp}) records each as {@code RESOURCE:SELF->PEER}.
 */
final class Activities implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Activities.class);

  private final String self;
  private final Map<String, Skill> skills;
  private final PeerDirectory peers;
  private final Recorder recorder;
  private final ScheduledExecutorService runner;
  private final SensorMetrics metrics;
  private final int minNetworkSeconds;
  private final Map<String, Running> running = new TreeMap<>();

  private record Running(Activity activity, ScheduledFuture<?> task) {}

  Activities(
      String self,
      Map<String, Skill> skills,
      PeerDirectory peers,
      Recorder recorder,
      ScheduledExecutorService runner,
      SensorMetrics metrics,
      int minNetworkSeconds) {
    this.minNetworkSeconds = minNetworkSeconds;
    this.self = self;
    this.skills = skills;
    this.peers = peers;
    this.recorder = recorder;
    this.runner = runner;
    this.metrics = metrics;
  }

  /**
   * Starts or replaces an activity.
   *
   * @throws IllegalArgumentException naming the bad field
   */
  synchronized Activity start(Activity a) {
    String p =
        a.getName().isEmpty()
            ? "activity.name is empty"
            : SeriesName.nameProblem("activity.name", a.getName());
    if (p != null) {
      throw new IllegalArgumentException(p);
    }
    Skill skill = skills.get(a.getSkill());
    if (skill == null) {
      throw new IllegalArgumentException(
          "activity.skill '" + a.getSkill() + "' is not one of " + skills.keySet());
    }
    if (a.getPeriodSeconds() < 1 || a.getPeriodSeconds() > 86_400) {
      throw new IllegalArgumentException(
          "activity.period_seconds " + a.getPeriodSeconds() + " is outside [1, 86400]");
    }
    if (skill instanceof PeerSkill && a.getPeriodSeconds() < minNetworkSeconds) {
      // A bandwidth experiment every second would flood the path it measures.
      throw new IllegalArgumentException(
          "activity.period_seconds "
              + a.getPeriodSeconds()
              + " is shorter than minNetworkActivitySeconds ("
              + minNetworkSeconds
              + ") for the network skill "
              + a.getSkill());
    }
    if (skill instanceof PeerSkill && a.getPeersCount() == 0) {
      throw new IllegalArgumentException(
          "activity.peers is empty; " + a.getSkill() + " measures the path to other hosts");
    }
    for (String peer : a.getPeersList()) {
      String bad = SeriesName.nameProblem("activity.peers host", peer);
      if (bad != null) {
        throw new IllegalArgumentException(bad);
      }
    }
    stop(a.getName());
    Runnable run =
        skill instanceof HostSkill h
            ? () -> runHost(h)
            : () -> runPeers((PeerSkill) skill, a.getPeersList());
    ScheduledFuture<?> task =
        runner.scheduleWithFixedDelay(run, 0, a.getPeriodSeconds(), TimeUnit.SECONDS);
    running.put(a.getName(), new Running(a, task));
    return a;
  }

  private void runHost(HostSkill skill) {
    try {
      recorder.record(skill.name() + ":" + self, skill.measure());
      metrics.taken(skill.name());
    } catch (Exception e) {
      metrics.failed(skill.name());
      log.warn("{} failed: {}", skill.name(), e.toString());
    }
  }

  private void runPeers(PeerSkill skill, List<String> hosts) {
    for (String host : hosts) {
      peers
          .find(host)
          .ifPresent(
              p -> {
                try {
                  Reading r =
                      skill.measure(p.probe()).toCompletableFuture().get(60, TimeUnit.SECONDS);
                  record(skill, self + "->" + host, r);
                  metrics.taken(skill.name());
                } catch (Exception e) {
                  metrics.failed(skill.name());
                  log.info("{} to {} failed: {}", skill.name(), host, e.toString());
                }
              });
    }
  }

  /** Records a reading as {@code SKILL:WHERE}, or each of its series as {@code RESOURCE:WHERE}. */
  void record(Skill skill, String where, Reading r) {
    if (skill instanceof PeerSeriesSkill s) {
      s.series(r)
          .forEach(
              (resource, v) ->
                  recorder.record(resource + ":" + where, Reading.of(v, skill.unit())));
    } else {
      recorder.record(skill.name() + ":" + where, r);
    }
  }

  synchronized boolean stop(String name) {
    Running r = running.remove(name);
    if (r != null) {
      r.task().cancel(false);
    }
    return r != null;
  }

  synchronized List<Activity> list() {
    List<Activity> out = new ArrayList<>();
    running.values().forEach(r -> out.add(r.activity()));
    return out;
  }

  @Override
  public synchronized void close() {
    running.values().forEach(r -> r.task().cancel(false));
    running.clear();
  }
}
