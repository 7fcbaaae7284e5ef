package org.netweather.sensor.clique;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * One host's part in one clique: takes the token, probes every other member in turn, passes the
 * token on, and regenerates it when it does not come back in time.
 *
 * <pre>
 * The original's protocol (docs/measurement.md, "Cliques and the token", clique_protocol.c), state
 * by state:
 *
 *   WAITING --token newer than any seen, addressed to me--> HOLDING
 *   WAITING --no token within the time-out of my last turn (plus a stagger by ring distance
 *             from the pacer, see below)--> regenerate: instance + 1, originator = me,
 *             time-out doubled --> HOLDING
 *   HOLDING: if I am the originator (the pacer) and my last turn began less than a period ago,
 *            wait for the period first; then probe members me+1, me+2, ... one at a time, each
 *            experiment bounded by period / members - 1 s (an overrunning one is cancelled);
 *            then hand the token to me+1, or me+2 if me+1 does not take it, and so on:
 *              ACCEPTED            --> WAITING
 *              STALE (newer exists) --> drop it --> WAITING
 *              nobody takes it     --> keep it, retry after a period
 *   any   --token older than the newest seen--> refused as STALE (the sender drops it)
 *   any   --newer token that no longer lists me--> STOPPED
 *
 * Tokens are ordered by (instance, originator, sequence), see CliqueToken. A hand-over adds its
 * ring distance to the sequence, so a token that skipped an unresponsive member carries the same
 * number as the copy that member may still pass on, and the later copy is refused.
 *
 * Ours: the stagger. In the original every member timed out on its own clock and duplicate tokens
 * were tolerated. But a regenerator's first turn is slow (its experiment with the dead member runs
 * into its time-out), so the next member's deadline, one ordinary turn later, would fire too and
 * two tokens would probe at once. So a member k places along the ring from the pacer waits
 * k * (members - 1) * (experiment time-out + pass time-out) longer: the pacer, if alive, resumes
 * within the time-out; if the pacer died, its successor resumes one stagger later.
 * </pre>
 *
 * <p>Confined to the scheduler's thread: the registry calls it only from scheduled tasks.
 * Asynchronous completions are posted back there, and every callback checks the epoch it was made
 * in, so callbacks of an abandoned turn do nothing.
 */
final class CliqueMember {

  private static final System.Logger LOG = System.getLogger(CliqueMember.class.getName());

  enum State {
    WAITING,
    HOLDING,
    STOPPED
  }

  private final String self;
  private final CliqueScheduler scheduler;
  private final TokenSender sender;
  private final CliqueExperiments experiments;
  private final LongSupplier wallMs;
  private final CliqueOptions options;

  private CliqueConfig config;
  private CliqueConfig pending;
  private AdaptiveTimeout timeout;
  private volatile State state = State.WAITING;
  private CliqueToken token;
  private long epoch;
  private long waitingSince;
  private long lastTurnStart = -1;
  private boolean observeNextTurn;
  private CliqueScheduler.Cancellable deadline;
  private CliqueScheduler.Cancellable wait;
  private CompletableFuture<?> inFlight;
  private long turns;
  private long regenerations;
  private long staleRejected;

  CliqueMember(
      String self,
      CliqueConfig config,
      CliqueToken lastSeen,
      CliqueScheduler scheduler,
      TokenSender sender,
      CliqueExperiments experiments,
      LongSupplier wallMs,
      CliqueOptions options) {
    this.self = self;
    this.config = config;
    this.token = lastSeen;
    this.scheduler = scheduler;
    this.sender = sender;
    this.experiments = experiments;
    this.wallMs = wallMs;
    this.options = options;
    this.timeout = new AdaptiveTimeout(config.period().toNanos());
  }

  /** Joins: the first member generates the first token, the others wait for it. */
  void start() {
    if (!config.members().contains(self)) {
      state = State.STOPPED;
      return;
    }
    if (token == null && config.members().get(0).equals(self)) {
      generate(1);
    } else {
      waitForToken(scheduler.nanoTime());
    }
  }

  /** Handles a token handed to this host. */
  TokenVerdict onToken(CliqueToken t) {
    if (state == State.STOPPED) {
      return TokenVerdict.NOT_MEMBER;
    }
    if (!t.members().contains(self)) {
      if (t.isNewerThan(token)) {
        LOG.log(System.Logger.Level.INFO, "clique {0}: no longer a member", t.clique());
        token = t;
        stop();
      }
      return TokenVerdict.NOT_MEMBER;
    }
    if (!t.holderName().equals(self)) {
      return TokenVerdict.NOT_MEMBER;
    }
    if (!t.isNewerThan(token)) {
      staleRejected++;
      return TokenVerdict.STALE;
    }
    token = t;
    if (!t.period().equals(config.period())) {
      timeout = new AdaptiveTimeout(t.period().toNanos());
    }
    config = new CliqueConfig(config.name(), t.members(), t.period());
    beginTurn();
    return TokenVerdict.ACCEPTED;
  }

  /** Takes a new member list or period at this host's next turn. */
  void reconfigure(CliqueConfig next) {
    pending = next;
  }

  /** Leaves the clique; later tokens are refused as NOT_MEMBER. */
  void stop() {
    epoch++;
    cancelTimers();
    if (inFlight != null) {
      inFlight.cancel(true);
    }
    state = State.STOPPED;
  }

  CliqueToken lastToken() {
    return token;
  }

  State state() {
    return state;
  }

  CliqueStatus status() {
    return new CliqueStatus(
        config.name(),
        state.name(),
        token == null ? 0 : token.instance(),
        token == null ? 0 : token.sequence(),
        token == null ? "" : token.originator(),
        config.members(),
        timeout.timeoutNanos() / 1_000_000,
        turns,
        regenerations,
        staleRejected);
  }

  // ---- turns ----

  private void generate(long instance) {
    List<String> ring = config.members();
    token =
        new CliqueToken(
            config.name(),
            instance,
            0,
            ring,
            ring.indexOf(self),
            config.period(),
            self,
            wallMs.getAsLong());
    // The gap before a regenerated turn contains the loss; it says nothing about cycle times.
    observeNextTurn = false;
    beginTurn();
  }

  private void beginTurn() {
    epoch++;
    cancelTimers();
    state = State.HOLDING;
    long e = epoch;
    long now = scheduler.nanoTime();
    if (self.equals(token.originator()) && lastTurnStart >= 0) {
      // The pacer holds a token that came back early until its period is up (step 6).
      long due = lastTurnStart + config.period().toNanos();
      if (now < due) {
        wait = scheduler.schedule(() -> ifCurrent(e, this::startTurn), due - now);
        return;
      }
    }
    startTurn();
  }

  private void startTurn() {
    if (inFlight != null && !inFlight.isDone()) {
      // An experiment of an abandoned turn is still being cancelled; probes must not overlap.
      long e = epoch;
      inFlight.whenComplete((r, x) -> scheduler.execute(() -> ifCurrent(e, this::startTurn)));
      return;
    }
    long now = scheduler.nanoTime();
    if (observeNextTurn && lastTurnStart >= 0) {
      timeout.observe(now - lastTurnStart);
    }
    observeNextTurn = true;
    lastTurnStart = now;
    turns++;
    applyPending();
    List<String> ring = config.members();
    int me = ring.indexOf(self);
    List<String> peers = new ArrayList<>();
    for (int d = 1; d < ring.size(); d++) {
      peers.add(ring.get((me + d) % ring.size()));
    }
    runExperiment(peers, 0, epoch);
  }

  private void applyPending() {
    if (pending == null) {
      return;
    }
    CliqueConfig next = pending;
    pending = null;
    if (!next.period().equals(config.period())) {
      timeout = new AdaptiveTimeout(next.period().toNanos());
    }
    config = next;
  }

  private void runExperiment(List<String> peers, int i, long e) {
    if (i == peers.size()) {
      pass(0, e);
      return;
    }
    CompletableFuture<?> f;
    try {
      f = experiments.run(config.name(), peers.get(i)).toCompletableFuture();
    } catch (RuntimeException ex) {
      f = CompletableFuture.failedFuture(ex);
    }
    CompletableFuture<?> running = f;
    inFlight = running;
    boolean[] over = {false};
    long limit = options.experimentTimeoutNanos(config.period(), config.members().size());
    CliqueScheduler.Cancellable guard =
        scheduler.schedule(
            () -> {
              if (!over[0]) {
                over[0] = true;
                // Step 8: an experiment past its time-out is stopped and the turn goes on.
                running.cancel(true);
                ifCurrent(e, () -> runExperiment(peers, i + 1, e));
              }
            },
            limit);
    running.whenComplete(
        (r, x) ->
            scheduler.execute(
                () -> {
                  if (!over[0]) {
                    over[0] = true;
                    guard.cancel();
                    ifCurrent(e, () -> runExperiment(peers, i + 1, e));
                  }
                }));
  }

  private void pass(int k, long e) {
    List<String> ring = config.members();
    int me = ring.indexOf(self);
    int candidates = me < 0 ? ring.size() : ring.size() - 1;
    if (k >= candidates) {
      // Nobody took it (or there is nobody): keep it and try again after a period (step 3).
      wait =
          scheduler.schedule(
              () ->
                  ifCurrent(
                      e,
                      () -> {
                        if (candidates == 0) {
                          startTurn();
                        } else {
                          pass(0, e);
                        }
                      }),
              config.period().toNanos());
      return;
    }
    // A host removed from the ring hands the token to the first member that takes it.
    int distance = k + 1;
    int to = me < 0 ? k : (me + distance) % ring.size();
    CliqueToken next = token.passedTo(ring, to, distance, wallMs.getAsLong());
    boolean[] answered = {false};
    CliqueScheduler.Cancellable guard =
        scheduler.schedule(
            () -> {
              if (!answered[0]) {
                answered[0] = true;
                ifCurrent(e, () -> pass(k + 1, e));
              }
            },
            options.passTimeout().toNanos());
    CompletableFuture<PassOutcome> sent;
    try {
      sent = sender.send(ring.get(to), next).toCompletableFuture();
    } catch (RuntimeException ex) {
      sent = CompletableFuture.completedFuture(PassOutcome.UNREACHABLE);
    }
    sent.whenComplete(
        (outcome, x) ->
            scheduler.execute(
                () -> {
                  if (answered[0]) {
                    return;
                  }
                  answered[0] = true;
                  guard.cancel();
                  ifCurrent(
                      e, () -> onPassed(x == null ? outcome : PassOutcome.UNREACHABLE, next, k, e));
                }));
  }

  private void onPassed(PassOutcome outcome, CliqueToken next, int k, long e) {
    switch (outcome) {
      case ACCEPTED:
        token = next;
        break;
      case STALE:
        // A newer token is about; this one dies here.
        break;
      default:
        pass(k + 1, e);
        return;
    }
    if (!config.members().contains(self)) {
      stop();
      return;
    }
    waitForToken(lastTurnStart);
  }

  private void waitForToken(long since) {
    epoch++;
    cancelTimers();
    state = State.WAITING;
    waitingSince = since;
    long e = epoch;
    long due = since + timeout.timeoutNanos() + rankAfterPacer() * staggerNanos();
    deadline =
        scheduler.schedule(
            () -> ifCurrent(e, this::regenerate), Math.max(0, due - scheduler.nanoTime()));
  }

  /** Ring distance from the pacer (the originator, or the first member) to this host. */
  private long rankAfterPacer() {
    List<String> ring = config.members();
    int pacer = token == null ? -1 : ring.indexOf(token.originator());
    int me = ring.indexOf(self);
    return ((long) me - Math.max(0, pacer) + ring.size()) % ring.size();
  }

  /**
   * How much later each member along the ring regenerates than the one before it: the longest a
   * regenerator's turn can take (every experiment timing out, every hand-over unanswered), so that
   * its new token reaches the next member before that member's own deadline and only one member
   * regenerates a lost token.
   */
  private long staggerNanos() {
    int n = config.members().size();
    long experiment = options.experimentTimeoutNanos(config.period(), n);
    return (n - 1) * (experiment + options.passTimeout().toNanos());
  }

  private void regenerate() {
    long instance = token == null ? 1 : token.instance() + 1;
    LOG.log(
        System.Logger.Level.WARNING,
        "clique {0}: token timed out after {1} ms; regenerating instance {2}",
        config.name(),
        (scheduler.nanoTime() - waitingSince) / 1_000_000,
        instance);
    timeout.onRegenerate();
    regenerations++;
    generate(instance);
  }

  private void ifCurrent(long e, Runnable action) {
    if (e == epoch && state != State.STOPPED) {
      action.run();
    }
  }

  private void cancelTimers() {
    if (deadline != null) {
      deadline.cancel();
      deadline = null;
    }
    if (wait != null) {
      wait.cancel();
      wait = null;
    }
  }
}
