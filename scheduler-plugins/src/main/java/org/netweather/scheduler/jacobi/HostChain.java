package org.netweather.scheduler.jacobi;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Orders candidate hosts into the AppLeS resource list: the locus first, then by logical distance.
 * The list order is the strip order.
 *
 * <p>Berman et al., SC'96 says two things (docs/schedulers/jacobi.md, "Resource selection"): the
 * text sorts the rest "by distance to the locus", the pseudocode chains "the machine closest to the
 * current tail". Chaining is the default because strip neighbours are exactly the pairs that
 * exchange borders; {@link Ordering#LOCUS_DISTANCE} keeps the other reading. Either way the list
 * stops at the first host farther than {@code maxDistance} from the locus (the paper's "predefined
 * maximum logical distance from the locus") or unreachable from the tail. Ties go to the smaller
 * host name, so runs are deterministic.
 */
public final class HostChain {
  /** How the rest of the list follows the locus. */
  public enum Ordering {
    /** Nearest to the current tail, repeatedly (the paper's pseudocode). */
    CHAIN,
    /** Nearest to the locus first (the paper's prose). */
    LOCUS_DISTANCE
  }

  private HostChain() {}

  /** The usable host with the smallest time per point, ties to the smaller name; -1 if none. */
  public static int fastest(StripModel model, int[] candidates) {
    int best = -1;
    for (int i : candidates) {
      if (best < 0
          || model.pointSeconds(i) < model.pointSeconds(best)
          || (model.pointSeconds(i) == model.pointSeconds(best)
              && model.name(i).compareTo(model.name(best)) < 0)) {
        best = i;
      }
    }
    return best;
  }

  /** The resource list from {@code locus} over {@code candidates} (which include the locus). */
  public static int[] order(
      StripModel model,
      int[] candidates,
      int locus,
      Ordering ordering,
      DistanceFunction distance,
      double maxDistance) {
    Integer[] rest =
        Arrays.stream(candidates)
            .filter(i -> i != locus)
            .boxed()
            .sorted(Comparator.comparing(model::name))
            .toArray(Integer[]::new);
    return ordering == Ordering.CHAIN
        ? chain(model, rest, locus, distance, maxDistance)
        : byLocus(model, rest, locus, distance, maxDistance);
  }

  private static int[] chain(
      StripModel model, Integer[] rest, int locus, DistanceFunction distance, double maxDistance) {
    int[] list = new int[rest.length + 1];
    list[0] = locus;
    int size = 1;
    boolean[] taken = new boolean[rest.length];
    while (size < list.length) {
      int tail = list[size - 1];
      int pick = -1;
      double nearest = Double.POSITIVE_INFINITY;
      for (int r = 0; r < rest.length; r++) {
        if (!taken[r]) {
          double d = distance.distance(model, tail, rest[r]);
          if (d < nearest) { // strict: the first in name order wins a tie
            nearest = d;
            pick = r;
          }
        }
      }
      if (pick < 0 || distance.distance(model, locus, rest[pick]) > maxDistance) {
        break;
      }
      taken[pick] = true;
      list[size++] = rest[pick];
    }
    return Arrays.copyOf(list, size);
  }

  private static int[] byLocus(
      StripModel model, Integer[] rest, int locus, DistanceFunction distance, double maxDistance) {
    double[] d = new double[model.snapshot().size()];
    for (int r : rest) {
      d[r] = distance.distance(model, locus, r);
    }
    // Arrays.sort on objects is stable, so equal distances keep name order.
    Integer[] sorted = rest.clone();
    Arrays.sort(sorted, Comparator.comparingDouble(r -> d[r]));
    int[] list = new int[rest.length + 1];
    list[0] = locus;
    int size = 1;
    for (int r : sorted) {
      if (!(d[r] <= maxDistance) || Double.isInfinite(d[r])) {
        break;
      }
      list[size++] = r;
    }
    return Arrays.copyOf(list, size);
  }
}
