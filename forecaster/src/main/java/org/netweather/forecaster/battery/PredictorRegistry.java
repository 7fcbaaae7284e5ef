package org.netweather.forecaster.battery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Names every predictor a battery can hold and makes fresh instances of them.
 *
 * <p>An explicit registry rather than classpath scanning (the shape of Caffeine's simulator {@code
 * Registry}): the list below is the whole catalogue, in battery order. Predictors made together by
 * {@link #create(List)} share their sorted windows and AR statistics, which is how a battery keeps
 * one sorted copy of its last 31 and 51 values instead of one per median, and one set of
 * autocovariances for its AR(16) and AR(4).
 *
 * <pre>{@code
 * PredictorRegistry registry = PredictorRegistry.standard();
 * List<Predictor> nws = registry.create(PredictorRegistry.FAITHFUL);
 * registry.register("my-predictor", MyPredictor::new);
 * }</pre>
 *
 * <p>Not thread-safe while being changed; safe to share once built.
 */
public final class PredictorRegistry {
  /** The 18 primary predictors of the original NWS, in its order (docs/forecasting.md). */
  public static final List<String> FAITHFUL =
      List.of(
          "last-value",
          "running-mean",
          "exp-smooth-0.05",
          "exp-smooth-0.10",
          "exp-smooth-0.15",
          "exp-smooth-0.20",
          "exp-smooth-0.30",
          "exp-smooth-0.40",
          "exp-smooth-0.50",
          "exp-smooth-0.75",
          "median-31",
          "median-5",
          "sliding-mean-31",
          "sliding-mean-5",
          "trimmed-mean-31",
          "trimmed-mean-51",
          "adaptive-median-5-21",
          "adaptive-median-21-51");

  /** Members beyond the original battery that the standard battery adds. */
  public static final List<String> EXTENDED =
      List.of(
          "ar16-ld", "ar4-ld", "holt-0.50-0.10", "holt-0.80-0.20", "holt-0.30-0.05", "nlms-8-0.10");

  /** Makes a predictor, sharing sorted windows through the pool it is given. */
  interface Factory {
    Predictor create(WindowPool pool);
  }

  private final Map<String, Factory> factories = new LinkedHashMap<>();

  /** A registry holding every built-in predictor. */
  public static PredictorRegistry standard() {
    PredictorRegistry r = new PredictorRegistry();
    r.register("last-value", pool -> new LastValue());
    r.register("running-mean", pool -> new RunningMean());
    for (double gain : new double[] {0.05, 0.10, 0.15, 0.20, 0.30, 0.40, 0.50, 0.75}) {
      r.register(new ExponentialSmoothing(gain).name(), pool -> new ExponentialSmoothing(gain));
    }
    r.register("median-31", pool -> median(pool, 31, 31));
    r.register("median-5", pool -> median(pool, 5, 5));
    r.register("sliding-mean-31", pool -> new SlidingMean(31));
    r.register("sliding-mean-5", pool -> new SlidingMean(5));
    r.register("trimmed-mean-31", pool -> trimmed(pool, 31, 0.3));
    r.register("trimmed-mean-51", pool -> trimmed(pool, 51, 0.3));
    r.register("adaptive-median-5-21", pool -> adaptive(pool, 31, 5, 21, 10, 1));
    r.register("adaptive-median-21-51", pool -> adaptive(pool, 51, 21, 51, 30, 5));
    for (int order : new int[] {4, 8, 16}) {
      r.register(
          "ar" + order + "-rls",
          pool -> new AutoRegressive(order, AutoRegressive.DEFAULT_FORGETTING));
    }
    for (int order : new int[] {4, 8, 16}) {
      r.register("ar" + order + "-ld", pool -> levinson(pool, order));
    }
    r.register("holt-0.50-0.10", pool -> new HoltTrend(0.5, 0.1));
    r.register("holt-0.80-0.20", pool -> new HoltTrend(0.8, 0.2));
    r.register("holt-0.30-0.05", pool -> new HoltTrend(0.3, 0.05));
    r.register("nlms-8-0.10", pool -> new NormalizedLms(8, 0.1));
    r.register("nlms-16-0.05", pool -> new NormalizedLms(16, 0.05));
    for (int order : new int[] {4, 8}) {
      r.register("ar" + order + "-diff", pool -> differencedAr(order));
    }
    for (double rate : new double[] {0.003, 0.01, 0.03}) {
      r.register(NormalizedLms.signError(8, rate).name(), pool -> NormalizedLms.signError(8, rate));
    }
    for (double gain : new double[] {0.1, 0.3, 0.5}) {
      r.register(new HuberLevel(gain).name(), pool -> new HuberLevel(gain));
    }
    return r;
  }

  /** Adds or replaces a predictor; {@code factory} must return a fresh instance each call. */
  public PredictorRegistry register(String name, Supplier<? extends Predictor> factory) {
    return register(name, pool -> factory.get());
  }

  PredictorRegistry register(String name, Factory factory) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("predictor name must not be empty");
    }
    factories.put(name, factory);
    return this;
  }

  /** Registered names in registration order. */
  public Set<String> names() {
    return Collections.unmodifiableSet(factories.keySet());
  }

  /** A fresh predictor with its own state. */
  public Predictor create(String name) {
    return factory(name).create(new WindowPool());
  }

  /** Fresh predictors, in the given order, sharing sorted windows where they can. */
  public List<Predictor> create(List<String> names) {
    WindowPool pool = new WindowPool();
    List<Predictor> out = new ArrayList<>(names.size());
    for (String name : names) {
      out.add(factory(name).create(pool));
    }
    return out;
  }

  Factory factory(String name) {
    Factory f = factories.get(name);
    if (f == null) {
      throw new IllegalArgumentException(
          "unknown predictor '" + name + "'; known: " + String.join(", ", factories.keySet()));
    }
    return f;
  }

  private static Predictor median(WindowPool pool, int capacity, int window) {
    boolean owner = !pool.has(capacity);
    return new SlidingMedian(pool.window(capacity), owner, window);
  }

  private static Predictor trimmed(WindowPool pool, int window, double trim) {
    boolean owner = !pool.has(window);
    return new TrimmedMean(pool.window(window), owner, window, trim);
  }

  private static Predictor levinson(WindowPool pool, int order) {
    double forgetting = AutoRegressive.DEFAULT_FORGETTING;
    boolean owner = !pool.hasAutocovariances(forgetting);
    return new LevinsonAutoRegressive(pool.autocovariances(forgetting, order), owner, order);
  }

  private static Predictor differencedAr(int order) {
    Autocovariances changes = new Autocovariances(AutoRegressive.DEFAULT_FORGETTING, order);
    return new Differenced(
        new LevinsonAutoRegressive(changes, true, order), "ar" + order + "-diff");
  }

  private static Predictor adaptive(
      WindowPool pool, int capacity, int min, int max, int start, int step) {
    boolean owner = !pool.has(capacity);
    return new AdaptiveMedian(pool.window(capacity), owner, min, max, start, step);
  }
}
