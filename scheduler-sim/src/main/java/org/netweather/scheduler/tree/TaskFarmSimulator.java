package org.netweather.scheduler.tree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Simulates farming N identical tasks out over a tree with one of the paper's autonomous protocols,
 * and reports the makespan.
 *
 * <p>Kreaseck et al., §4 ran these protocols on a real seven-node fork graph; this is a fluid
 * discrete-event model of the same system, using the interference model of §3.1:
 *
 * <ul>
 *   <li>Every node computes one task at a time, at {@code C·max(0, 1 − IR_r·TR_in − Σ
 *       IR_s(i)·TR_i)} compute units per second, where the transfer rates are those of the moment;
 *       rates change only at events, so progress between events is exact.
 *   <li>A non-root node holds at most {@code buffers} tasks (being received, waiting, being
 *       computed) and asks its parent for one more whenever a slot frees; the request is stamped
 *       with the time (for FCFS).
 *   <li>A node computes whenever it is idle and holds a task, and serves requests from what it
 *       holds. Single-port protocols send one whole task at a time at the child's link rate.
 *       IA:Multi starts another send while the sends in progress use less than the parent's send
 *       limit, shares that limit max-min fairly among them, and sends in chunks: after each chunk a
 *       send yields to a requesting child of higher priority if the limit is used up, and resumes
 *       later where it stopped (the paper's interruptible 512 KB chunks).
 * </ul>
 *
 * IA:Single and IA:Multi are run as the paper ran them, without the exclusion rule; IA:Derived
 * applies it. Not modelled: the send/receive synergy, TCP dynamics, message latency, and the
 * run-to-run variance of send times the paper reports (200 ms to 2 s for the same 2 MB).
 */
public final class TaskFarmSimulator {
  private static final double EPS = 1e-9;

  /**
   * Knobs of the simulated protocols.
   *
   * @param buffers task slots per non-root node, including the task being computed
   * @param chunkMb IA:Multi's interruption granularity
   */
  public record Settings(int buffers, double chunkMb) {
    public Settings {
      if (buffers < 1 || !(chunkMb > 0)) {
        throw new IllegalArgumentException("buffers must be >= 1 and chunkMb > 0");
      }
    }

    /** Two slots (one computing, one arriving or waiting) and 512 KB chunks. */
    public static Settings defaults() {
      return new Settings(2, 0.5);
    }
  }

  /**
   * One run.
   *
   * @param makespan seconds until the last task finished computing
   * @param computed tasks computed per node, in preorder
   * @param sends tasks sent over any edge
   * @param preemptions IA:Multi sends suspended for a higher-priority child
   */
  public record Result(
      Protocol protocol,
      int tasks,
      double makespan,
      Map<String, Integer> computed,
      int sends,
      int preemptions) {}

  private final TaskSpec task;
  private final Protocol protocol;
  private final Settings settings;
  private final List<Node> nodes = new ArrayList<>();
  private double now;
  private int done;
  private int sends;
  private int preemptions;

  private TaskFarmSimulator(TreeNode root, TaskSpec task, Protocol protocol, Settings settings) {
    this.task = task;
    this.protocol = protocol;
    this.settings = settings;
    build(root, null);
  }

  /** Simulates {@code tasks} tasks, all held by the root at time 0. */
  public static Result run(
      TreeNode root, TaskSpec task, int tasks, Protocol protocol, Settings settings) {
    if (tasks < 1) {
      throw new IllegalArgumentException("simulate at least one task, got " + tasks);
    }
    return new TaskFarmSimulator(root, task, protocol, settings).simulate(tasks);
  }

  private Node build(TreeNode spec, Node parent) {
    Node n = new Node(spec, parent);
    nodes.add(n);
    for (TreeNode c : spec.children()) {
      n.children.add(build(c, n));
    }
    List<TreeNode> order = ChildPriority.protocolOrder(spec, task, protocol);
    n.order = new ArrayList<>();
    for (TreeNode c : order) {
      n.order.add(n.children.get(spec.children().indexOf(c)));
    }
    return n;
  }

  private Result simulate(int tasks) {
    Node root = nodes.get(0);
    root.held = tasks;
    while (done < tasks) {
      for (Node n : nodes) {
        request(n);
      }
      for (Node n : nodes) {
        dispatch(n);
      }
      updateRates();
      double dt = nextEvent();
      if (Double.isInfinite(dt)) {
        throw new IllegalStateException(
            "simulation stalled at t=" + now + " with " + done + " of " + tasks + " tasks done");
      }
      advance(dt);
    }
    Map<String, Integer> computed = new LinkedHashMap<>();
    for (Node n : nodes) {
      computed.put(n.spec.name(), n.computed);
    }
    return new Result(protocol, tasks, now, computed, sends, preemptions);
  }

  /** Tops up a non-root node's outstanding requests to its free slots. */
  private void request(Node n) {
    if (n.parent == null) {
      return;
    }
    int free = settings.buffers() - n.held - (n.computing ? 1 : 0) - (n.incoming != null ? 1 : 0);
    while (n.requests.size() < free) {
      n.requests.addLast(now);
    }
  }

  private void dispatch(Node n) {
    if (!n.computing && n.held > 0) {
      n.held--;
      n.computing = true;
      n.computeLeft = task.compute();
    }
    if (protocol == Protocol.ROOT_COMPUTES || n.children.isEmpty()) {
      return;
    }
    if (protocol == Protocol.IA_MULTI) {
      dispatchMulti(n);
    } else if (n.sending.isEmpty() && n.held > 0) {
      Node child = pickSingle(n);
      if (child != null) {
        start(n, child);
      }
    }
  }

  private Node pickSingle(Node n) {
    Node best = null;
    for (Node c : n.order) {
      if (c.requests.isEmpty() || c.incoming != null) {
        continue;
      }
      if (protocol == Protocol.IA_DERIVED && ChildPriority.offloadCost(n.spec, c.spec, task) >= 1) {
        continue;
      }
      if (protocol != Protocol.FCFS) {
        return c; // n.order is already by priority
      }
      if (best == null || c.requests.peekFirst() < best.requests.peekFirst()) {
        best = c;
      }
    }
    return best;
  }

  private void dispatchMulti(Node n) {
    while (true) {
      shareSendLimit(n);
      if (used(n) >= n.spec.sendLimit() * (1 - EPS)) {
        return;
      }
      Node next = null;
      for (Node c : n.order) {
        boolean resumable = c.incoming != null && c.incoming.suspended;
        boolean asking = c.incoming == null && !c.requests.isEmpty() && n.held > 0;
        if (resumable || asking) {
          next = c;
          break;
        }
      }
      if (next == null) {
        return;
      }
      if (next.incoming != null) {
        next.incoming.suspended = false;
        n.sending.add(next.incoming);
      } else {
        start(n, next);
      }
    }
  }

  private void start(Node parent, Node child) {
    parent.held--;
    child.requests.pollFirst();
    Transfer t = new Transfer(child, task.sizeMb());
    child.incoming = t;
    parent.sending.add(t);
    sends++;
  }

  private static double used(Node n) {
    double sum = 0;
    for (Transfer t : n.sending) {
      sum += t.rate;
    }
    return sum;
  }

  /** Max-min fair shares of the parent's send limit, each capped by its link rate. */
  private void shareSendLimit(Node n) {
    if (protocol != Protocol.IA_MULTI) {
      for (Transfer t : n.sending) {
        t.rate = t.to.spec.linkRate();
      }
      return;
    }
    List<Transfer> byLink = new ArrayList<>(n.sending);
    byLink.sort(Comparator.comparingDouble(t -> t.to.spec.linkRate()));
    double left = n.spec.sendLimit();
    for (int i = 0; i < byLink.size(); i++) {
      Transfer t = byLink.get(i);
      t.rate = Math.min(t.to.spec.linkRate(), left / (byLink.size() - i));
      left -= t.rate;
    }
  }

  private void updateRates() {
    for (Node n : nodes) {
      shareSendLimit(n);
    }
    for (Node n : nodes) {
      double load = 0;
      if (n.incoming != null && !n.incoming.suspended) {
        load += n.spec.recvInterference() * n.incoming.rate;
      }
      for (Transfer t : n.sending) {
        load += t.to.spec.sendInterference() * t.rate;
      }
      n.rate = n.spec.computeRate() * Math.max(0, 1 - load);
    }
  }

  private double nextEvent() {
    double dt = Double.POSITIVE_INFINITY;
    for (Node n : nodes) {
      if (n.computing && n.rate > 0) {
        dt = Math.min(dt, n.computeLeft / n.rate);
      }
      for (Transfer t : n.sending) {
        if (t.rate > 0) {
          dt = Math.min(dt, t.left / t.rate);
          if (protocol == Protocol.IA_MULTI) {
            dt = Math.min(dt, (t.left - nextBoundary(t)) / t.rate);
          }
        }
      }
    }
    return dt;
  }

  /** MB still to send when the current chunk ends (0 for the last chunk). */
  private double nextBoundary(Transfer t) {
    double sent = task.sizeMb() - t.left;
    double boundary = Math.floor(sent / settings.chunkMb() + EPS + 1) * settings.chunkMb();
    return Math.max(0, task.sizeMb() - boundary);
  }

  private void advance(double dt) {
    now += dt;
    List<Transfer> atBoundary = new ArrayList<>();
    for (Node n : nodes) {
      if (n.computing) {
        n.computeLeft -= n.rate * dt;
        if (n.computeLeft <= EPS * task.compute()) {
          n.computing = false;
          n.computed++;
          done++;
        }
      }
      for (Transfer t : new ArrayList<>(n.sending)) {
        double boundary = protocol == Protocol.IA_MULTI ? nextBoundary(t) : 0;
        t.left -= t.rate * dt;
        if (t.left <= EPS * task.sizeMb()) {
          n.sending.remove(t);
          t.to.incoming = null;
          t.to.held++;
        } else if (protocol == Protocol.IA_MULTI && t.left <= boundary + EPS * task.sizeMb()) {
          t.left = boundary; // land exactly on the chunk edge
          atBoundary.add(t);
        }
      }
    }
    for (Transfer t : atBoundary) {
      yieldIfOutranked(t);
    }
  }

  /** At a chunk edge a send yields to a waiting child of higher priority if bandwidth is full. */
  private void yieldIfOutranked(Transfer t) {
    Node parent = t.to.parent;
    request(t.to);
    shareSendLimit(parent);
    if (used(parent) < parent.spec.sendLimit() * (1 - EPS)) {
      return; // room for the other child without stopping this one
    }
    for (Node c : parent.order) {
      if (c == t.to) {
        return; // nobody better is waiting
      }
      request(c);
      boolean resumable = c.incoming != null && c.incoming.suspended;
      boolean asking = c.incoming == null && !c.requests.isEmpty() && parent.held > 0;
      if (resumable || asking) {
        t.suspended = true;
        parent.sending.remove(t);
        preemptions++;
        return;
      }
    }
  }

  /** Simulation state of one tree node. */
  private static final class Node {
    final TreeNode spec;
    final Node parent;
    final List<Node> children = new ArrayList<>();
    List<Node> order;
    final ArrayDeque<Double> requests = new ArrayDeque<>();
    final List<Transfer> sending = new ArrayList<>();
    Transfer incoming;
    int held;
    boolean computing;
    double computeLeft;
    double rate;
    int computed;

    Node(TreeNode spec, Node parent) {
      this.spec = spec;
      this.parent = parent;
    }
  }

  /** One task on its way from a parent to a child. */
  private static final class Transfer {
    final Node to;
    double left;
    double rate;
    boolean suspended;

    Transfer(Node to, double mb) {
      this.to = to;
      this.left = mb;
    }
  }
}
