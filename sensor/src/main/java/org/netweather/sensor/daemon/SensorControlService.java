package org.netweather.sensor.daemon;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.netweather.api.v1.Activity;
import org.netweather.api.v1.CliqueToken;
import org.netweather.api.v1.GetStatusRequest;
import org.netweather.api.v1.PassTokenResponse;
import org.netweather.api.v1.ProbeRequest;
import org.netweather.api.v1.ProbeResponse;
import org.netweather.api.v1.SensorControlGrpc;
import org.netweather.api.v1.SensorStatus;
import org.netweather.api.v1.StartActivityRequest;
import org.netweather.api.v1.StopActivityRequest;
import org.netweather.api.v1.StopActivityResponse;
import org.netweather.model.SeriesName;
import org.netweather.runtime.Statuses;
import org.netweather.sensor.HostSkill;
import org.netweather.sensor.PeerSkill;
import org.netweather.sensor.Reading;
import org.netweather.sensor.Skill;
import org.netweather.sensor.clique.CliqueRegistry;
import org.netweather.sensor.clique.CliqueTokens;
import org.netweather.sensor.spool.Spool;

/** The {@code netweather.v1.SensorControl} gRPC service. */
final class SensorControlService extends SensorControlGrpc.SensorControlImplBase {
  private final String host;
  private final Activities activities;
  private final CliqueRegistry cliques;
  private final Spool spool;
  private final Map<String, Skill> skills;
  private final PeerDirectory peers;
  private final AdHocProbeLimiter adHoc;
  private final Supplier<String> probeAddress;

  SensorControlService(
      String host,
      Activities activities,
      CliqueRegistry cliques,
      Spool spool,
      Map<String, Skill> skills,
      PeerDirectory peers,
      AdHocProbeLimiter adHoc,
      Supplier<String> probeAddress) {
    this.adHoc = adHoc;
    this.host = host;
    this.activities = activities;
    this.cliques = cliques;
    this.spool = spool;
    this.skills = skills;
    this.peers = peers;
    this.probeAddress = probeAddress;
  }

  @Override
  public void getStatus(GetStatusRequest req, StreamObserver<SensorStatus> out) {
    Statuses.respond(
        out,
        () ->
            SensorStatus.newBuilder()
                .setHost(host)
                .addAllActivities(activities.list())
                .addAllCliques(cliques.cliques())
                .setSpooled(spool.pending())
                .setSpoolDropped(spool.dropped())
                .setProbeAddress(probeAddress.get())
                .build());
  }

  @Override
  public void startActivity(StartActivityRequest req, StreamObserver<Activity> out) {
    Statuses.respond(out, () -> activities.start(req.getActivity()));
  }

  @Override
  public void stopActivity(StopActivityRequest req, StreamObserver<StopActivityResponse> out) {
    Statuses.respond(
        out,
        () -> StopActivityResponse.newBuilder().setRemoved(activities.stop(req.getName())).build());
  }

  @Override
  public void passToken(CliqueToken req, StreamObserver<PassTokenResponse> out) {
    org.netweather.sensor.clique.CliqueToken token;
    try {
      token = CliqueTokens.fromProto(req);
    } catch (IllegalArgumentException e) {
      out.onError(Statuses.toStatus(e));
      return;
    }
    cliques
        .receive(token)
        .whenComplete(
            (verdict, err) -> {
              if (err != null) {
                out.onError(Statuses.toStatus(err));
                return;
              }
              switch (verdict) {
                case ACCEPTED -> {
                  out.onNext(PassTokenResponse.getDefaultInstance());
                  out.onCompleted();
                }
                case STALE ->
                    out.onError(
                        Status.ABORTED
                            .withDescription("token of clique " + req.getClique() + " is stale")
                            .asRuntimeException());
                default ->
                    out.onError(
                        Status.FAILED_PRECONDITION
                            .withDescription(host + " is not a member of clique " + req.getClique())
                            .asRuntimeException());
              }
            });
  }

  @Override
  public void probe(ProbeRequest req, StreamObserver<ProbeResponse> out) {
    Statuses.respond(
        out,
        () -> {
          Skill skill = skills.get(req.getSkill());
          if (skill == null) {
            throw new IllegalArgumentException(
                "skill '" + req.getSkill() + "' is not one of " + skills.keySet());
          }
          Reading r;
          if (skill instanceof HostSkill h) {
            r = h.measure();
          } else {
            if (req.getPeer().isEmpty()) {
              throw new IllegalArgumentException(
                  "peer is missing; " + req.getSkill() + " measures the path to another host");
            }
            // Only registered sensors are probed, at the probe address they registered: a
            // caller cannot aim this host at an arbitrary address and port.
            String bad = SeriesName.nameProblem("peer (a sensor's host name)", req.getPeer());
            if (bad != null) {
              throw new IllegalArgumentException(bad);
            }
            InetSocketAddress peer =
                peers
                    .find(req.getPeer())
                    .orElseThrow(
                        () ->
                            Statuses.notFound(
                                "no sensor is registered for host '" + req.getPeer() + "'"))
                    .probe();
            String refused = adHoc.tryAcquire();
            if (refused != null) {
              throw Statuses.resourceExhausted(refused);
            }
            try {
              r = ((PeerSkill) skill).measure(peer).toCompletableFuture().get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
              throw Statuses.unavailable(
                  "probe of " + req.getPeer() + " failed: " + e.getCause().getMessage());
            } finally {
              adHoc.release();
            }
          }
          return ProbeResponse.newBuilder()
              .setValue(r.value())
              .setUnit(r.unit())
              .setBytes(r.bytesSpent())
              .build();
        });
  }
}
