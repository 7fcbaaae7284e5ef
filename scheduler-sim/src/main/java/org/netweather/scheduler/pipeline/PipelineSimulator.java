package org.netweather.scheduler.pipeline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Executes a placement as a fluid discrete-event simulation, so estimates can be set against what
 * the placement would really achieve.
 *
 * <pre>
 * - Each copy repeats read → compute → write. Sources have no read; a copy's compute for one
 *   cycle is computePerCycle CPU seconds, and copies on one host share its speed equally
 *   (processor sharing).
 * - Demand-driven (DD) distribution, the paper's runtime policy (Spencer et al., SC'02, §3):
 *   each output buffer goes to the consumer copy with the fewest buffers queued or in flight;
 *   a producer blocks while every consumer holds WINDOW of them.
 * - Transfers are flows sharing capacity max-min fairly (progressive filling) over the pair
 *   link and every shared segment they cross, so four streams over one 6 Mbit/s WAN get
 *   1.5 Mbit/s each, as they would on the wire. Latency only shifts the reported arrival
 *   times: with WINDOW buffers in flight per consumer it does not limit throughput.
 * Between events every rate is constant, so the simulation is exact for this fluid model.
 * </pre>
 */
public final class PipelineSimulator {
  /** Buffers a consumer may hold queued or in flight before producers must wait. */
  static final int WINDOW = 4;

  private PipelineSimulator() {}

  /**
   * The outcome: simulated makespan and, per filter, the bytes/s its input arrived at over its busy
   * period (for the source, its output rate).
   */
  public record Result(double makespan, double[] stageRates, long events) {}

  private static final class Copy {
    final int filter;
    final int host;
    double cyclesLeft; // a source's remaining cycles; unused otherwise
    int queued; // buffers received, not yet processed
    int inFlight; // buffers being sent to this copy
    double work; // CPU seconds left in the current cycle, 0 when idle
    double credit; // output buffers owed (fractional)
    boolean computing;

    Copy(int filter, int host) {
      this.filter = filter;
      this.host = host;
    }
  }

  private static final class Flow {
    final Copy from;
    final Copy to;
    double bytes;
    double rate;
    final int[] resources;

    Flow(Copy from, Copy to, double bytes, int[] resources) {
      this.from = from;
      this.to = to;
      this.bytes = bytes;
      this.resources = resources;
    }
  }

  public static Result run(Pipeline pipeline, Topology topo, Placement placement) {
    int nf = pipeline.size();
    int n = topo.size();
    List<List<Copy>> copies = new ArrayList<>();
    for (int i = 0; i < nf; i++) {
      List<Copy> cs = new ArrayList<>();
      for (Placement.Copy pc : placement.copies().get(i)) {
        Copy c = new Copy(i, pc.host());
        if (i == 0) {
          c.cyclesLeft = pipeline.filter(0).stats().cycles() * pc.share();
        }
        cs.add(c);
      }
      copies.add(cs);
    }
    // Resources: pair links (n*n) then segments.
    int segs = topo.segments().size();
    double[] capacity = new double[n * n + segs];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        capacity[a * n + b] = topo.bandwidth(a, b);
      }
    }
    for (int s = 0; s < segs; s++) {
      capacity[n * n + s] = topo.segments().get(s).capacity();
    }
    List<Flow> flows = new ArrayList<>();
    double[] firstIn = new double[nf];
    double[] lastIn = new double[nf];
    double[] bytesIn = new double[nf];
    Arrays.fill(firstIn, Double.NaN);
    double now = 0;
    long events = 0;
    startWork(pipeline, copies);
    while (true) {
      events++;
      int[] busy = new int[n];
      for (List<Copy> cs : copies) {
        for (Copy c : cs) {
          if (c.computing) {
            busy[c.host]++;
          }
        }
      }
      share(flows, capacity);
      double dt = Double.POSITIVE_INFINITY;
      for (List<Copy> cs : copies) {
        for (Copy c : cs) {
          if (c.computing) {
            double speed = topo.speed(c.host) / busy[c.host];
            dt = Math.min(dt, speed > 0 ? c.work / speed : Double.POSITIVE_INFINITY);
          }
        }
      }
      for (Flow f : flows) {
        dt = Math.min(dt, f.rate > 0 ? f.bytes / f.rate : Double.POSITIVE_INFINITY);
      }
      if (dt == Double.POSITIVE_INFINITY) {
        if (!flows.isEmpty() || anyComputing(copies)) {
          throw new IllegalArgumentException(
              "the placement cannot finish: a stream has no " + "bandwidth or a host no CPU");
        }
        break;
      }
      now += dt;
      for (List<Copy> cs : copies) {
        for (Copy c : cs) {
          if (c.computing) {
            c.work -= dt * topo.speed(c.host) / busy[c.host];
          }
        }
      }
      List<Flow> done = new ArrayList<>();
      for (Flow f : flows) {
        f.bytes -= dt * f.rate;
        if (f.bytes <= 1e-6) {
          done.add(f);
        }
      }
      for (Flow f : done) {
        flows.remove(f);
        f.to.inFlight--;
        f.to.queued++;
        int i = f.to.filter;
        double size = pipeline.filter(i - 1).stats().outBytesPerBuffer();
        double at = now + topo.latency(f.from.host, f.to.host);
        firstIn[i] = Double.isNaN(firstIn[i]) ? at - size / Math.max(f.rate, 1e-300) : firstIn[i];
        lastIn[i] = Math.max(lastIn[i], at);
        bytesIn[i] += size;
      }
      for (List<Copy> cs : copies) {
        for (Copy c : cs) {
          if (c.computing && c.work <= 1e-12) {
            c.computing = false;
            c.work = 0;
            c.credit += pipeline.filter(c.filter).stats().outPerCycle();
            if (c.filter == 0) {
              bytesIn[0] +=
                  pipeline.filter(0).stats().outPerCycle()
                      * pipeline.filter(0).stats().outBytesPerBuffer();
              lastIn[0] = now;
              firstIn[0] = 0;
            }
          }
        }
      }
      emit(pipeline, topo, copies, flows, n);
      startWork(pipeline, copies);
    }
    double[] rates = new double[nf];
    for (int i = 0; i < nf; i++) {
      rates[i] =
          bytesIn[i] / Math.max(lastIn[i] - (Double.isNaN(firstIn[i]) ? 0 : firstIn[i]), 1e-12);
    }
    return new Result(now, rates, events);
  }

  private static boolean anyComputing(List<List<Copy>> copies) {
    return copies.stream().flatMap(List::stream).anyMatch(c -> c.computing);
  }

  /** Idle copies with input (or source cycles left) and no unsent output start a cycle. */
  private static void startWork(Pipeline pipeline, List<List<Copy>> copies) {
    for (List<Copy> cs : copies) {
      for (Copy c : cs) {
        if (c.computing || c.credit >= 1) {
          continue;
        }
        if (c.filter == 0 && c.cyclesLeft > 1e-9) {
          c.cyclesLeft -= 1;
          c.computing = true;
        } else if (c.filter > 0 && c.queued > 0) {
          c.queued--;
          c.computing = true;
        }
        if (c.computing) {
          c.work = pipeline.filter(c.filter).stats().computePerCycle();
        }
      }
    }
  }

  /** Sends owed buffers to the least-loaded consumer copy (demand-driven). */
  private static void emit(
      Pipeline pipeline, Topology topo, List<List<Copy>> copies, List<Flow> flows, int n) {
    for (int i = 0; i < copies.size(); i++) {
      for (Copy c : copies.get(i)) {
        while (c.credit >= 1 - 1e-9) {
          if (i == copies.size() - 1) {
            c.credit = 0; // the sink's output leaves the pipeline
            break;
          }
          Copy to = null;
          for (Copy d : copies.get(i + 1)) {
            int load = d.queued + d.inFlight + (d.computing ? 1 : 0);
            if (load < WINDOW
                && (to == null || load < to.queued + to.inFlight + (to.computing ? 1 : 0))) {
              to = d;
            }
          }
          if (to == null) {
            break; // every consumer is full: the producer stalls
          }
          c.credit -= 1;
          to.inFlight++;
          double size = pipeline.filter(i).stats().outBytesPerBuffer();
          int[] seg = topo.segmentsOf(c.host, to.host);
          int[] res = new int[seg.length + (c.host == to.host ? 0 : 1)];
          for (int k = 0; k < seg.length; k++) {
            res[k] = n * n + seg[k];
          }
          if (c.host != to.host) {
            res[seg.length] = c.host * n + to.host;
          }
          flows.add(new Flow(c, to, c.host == to.host ? 0 : size, res));
        }
      }
    }
  }

  /** Max-min fair rates by progressive filling; a flow with no resources is instantaneous. */
  static void share(List<Flow> flows, double[] capacity) {
    double[] left = capacity.clone();
    int[] users = new int[capacity.length];
    List<Flow> open = new ArrayList<>();
    for (Flow f : flows) {
      if (f.resources.length == 0) {
        f.rate = Double.POSITIVE_INFINITY;
      } else {
        open.add(f);
        for (int r : f.resources) {
          users[r]++;
        }
      }
    }
    while (!open.isEmpty()) {
      double fair = Double.POSITIVE_INFINITY;
      int bottleneck = -1;
      for (int r = 0; r < left.length; r++) {
        if (users[r] > 0 && left[r] / users[r] < fair) {
          fair = left[r] / users[r];
          bottleneck = r;
        }
      }
      List<Flow> frozen = new ArrayList<>();
      for (Flow f : open) {
        for (int r : f.resources) {
          if (r == bottleneck) {
            frozen.add(f);
            break;
          }
        }
      }
      for (Flow f : frozen) {
        f.rate = Math.max(fair, 0);
        for (int r : f.resources) {
          left[r] -= f.rate;
          users[r]--;
        }
      }
      open.removeAll(frozen);
    }
  }
}
