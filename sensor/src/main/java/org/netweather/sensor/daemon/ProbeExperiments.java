package org.netweather.sensor.daemon;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.netweather.sensor.PeerSkill;
import org.netweather.sensor.Reading;
import org.netweather.sensor.clique.CliqueExperiments;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clique holder's experiments against one peer: each network skill in turn (latency, connect
 * time, bandwidth), recorded as {@code SKILL:SELF->PEER}. Skills run one after another so they
 * never disturb each other, and a cancelled run stops before its next skill.
 */
final class ProbeExperiments implements CliqueExperiments {
  private static final Logger log = LoggerFactory.getLogger(ProbeExperiments.class);

  private final String self;
  private final List<PeerSkill> skills;
  private final PeerDirectory peers;
  private final Recorder recorder;
  private final SensorMetrics metrics;

  ProbeExperiments(
      String self,
      List<PeerSkill> skills,
      PeerDirectory peers,
      Recorder recorder,
      SensorMetrics metrics) {
    this.self = self;
    this.skills = List.copyOf(skills);
    this.peers = peers;
    this.recorder = recorder;
    this.metrics = metrics;
  }

  @Override
  public CompletionStage<?> run(String clique, String peer) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    PeerDirectory.Peer p = peers.find(peer).orElse(null);
    if (p == null) {
      log.info("clique {}: no sensor registered for {}; skipping it", clique, peer);
      done.complete(null);
      return done;
    }
    log.info("clique {}: probing {} at {}", clique, peer, p.probe());
    next(0, p, done, clique, System.nanoTime());
    return done;
  }

  private void next(
      int i, PeerDirectory.Peer p, CompletableFuture<Void> done, String clique, long startNanos) {
    if (i == skills.size() || done.isDone()) {
      // Logged when the last skill has really finished (even after a cancellation), so the
      // "probing" and "probed" lines bound this holder's traffic to the peer.
      log.info(
          "clique {}: probed {} in {} ms{}",
          clique,
          p.host(),
          (System.nanoTime() - startNanos) / 1_000_000,
          done.isDone() ? " (cancelled)" : "");
      done.complete(null);
      return;
    }
    PeerSkill skill = skills.get(i);
    CompletableFuture<Reading> running = skill.measure(p.probe()).toCompletableFuture();
    // When the clique gives up on this turn (experiment time-out), stop the skill in flight
    // too, so this holder's traffic ends before the next holder starts.
    done.whenComplete((v, e) -> running.cancel(true));
    running.whenComplete(
        (reading, err) -> {
          try {
            if (err == null) {
              recorder.record(skill.name() + ":" + self + "->" + p.host(), reading);
              metrics.taken(skill.name());
            } else {
              metrics.failed(skill.name());
              log.info("{} to {} failed: {}", skill.name(), p.host(), err.toString());
            }
          } catch (RuntimeException e) {
            // The spool could not take it; the turn goes on with the next skill regardless.
            metrics.failed(skill.name());
            log.warn("{} to {}: not recorded: {}", skill.name(), p.host(), e.toString());
          } finally {
            next(i + 1, p, done, clique, startNanos);
          }
        });
  }
}
