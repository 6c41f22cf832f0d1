package dev.clrscope.monitor.gc;

import java.util.ArrayList;
import java.util.List;

/**
 * Why the GC chose the generation it condemned, decoded from the two words of the runtime's {@code
 * gen_to_condemn_tuning} (src/coreclr/gc/gcrecord.h) that GCPerHeapHistory and GCGlobalHeapHistory
 * carry as CondemnReasons0 and CondemnReasons1.
 *
 * <p>CondemnReasons0 packs four 2-bit generations: bits 0-1 the initial choice, 2-3 the final
 * choice for the heap, 4-5 the generation whose allocation budget was exceeded, 6-7 the one time
 * tuning chose. CondemnReasons1 is a set of conditions, one bit each.
 *
 * @param initialGeneration the generation first chosen
 * @param finalPerHeapGeneration the generation this heap finally asked for
 * @param budgetExceededGeneration the highest generation whose allocation budget was exceeded
 * @param timeTuningGeneration the generation time-based tuning chose (usually 0)
 * @param conditions the conditions that were set, by the runtime's names without the {@code gen_}
 *     prefix and {@code _p} suffix (such as {@code induced_fullgc})
 */
public record CondemnReasons(
    int initialGeneration,
    int finalPerHeapGeneration,
    int budgetExceededGeneration,
    int timeTuningGeneration,
    List<String> conditions) {

  /** The runtime's {@code gc_condemn_reason_condition}, indexed by bit. */
  private static final String[] CONDITIONS = {
    "induced_fullgc",
    "expand_fullgc",
    "high_mem",
    "very_high_mem",
    "low_ephemeral",
    "low_card",
    "eph_high_frag",
    "max_high_frag",
    "max_high_frag_e",
    "max_high_frag_m",
    "max_high_frag_vm",
    "max_gen1",
    "before_oom",
    "gen2_too_small",
    "induced_noforce",
    "before_bgc",
    "almost_max_alloc",
    "joined_avoid_unproductive",
    "joined_pm_induced_fullgc",
    "joined_pm_alloc_loh",
    "joined_gen1_in_pm",
    "joined_limit_before_oom",
    "joined_limit_loh_frag",
    "joined_limit_loh_reclaim",
    "joined_servo_initial",
    "joined_servo_ngc",
    "joined_servo_bgc",
    "joined_servo_postpone",
    "joined_stress_mix",
    "joined_stress",
    "joined_aggressive",
  };

  /** Copies the list. */
  public CondemnReasons {
    conditions = List.copyOf(conditions);
  }

  /** Decodes the two words as the runtime wrote them. */
  public static CondemnReasons decode(long reasons0, long reasons1) {
    List<String> set = new ArrayList<>();
    for (int bit = 0; bit < 32; bit++) {
      if ((reasons1 & (1L << bit)) != 0) {
        set.add(bit < CONDITIONS.length ? CONDITIONS[bit] : "condition" + bit);
      }
    }
    return new CondemnReasons(
        (int) (reasons0 & 3),
        (int) ((reasons0 >>> 2) & 3),
        (int) ((reasons0 >>> 4) & 3),
        (int) ((reasons0 >>> 6) & 3),
        set);
  }

  /** The two sets of conditions together, each once, in bit order of the first then the second. */
  public CondemnReasons withConditionsOf(CondemnReasons other) {
    List<String> all = new ArrayList<>(conditions);
    for (String c : other.conditions) {
      if (!all.contains(c)) {
        all.add(c);
      }
    }
    return new CondemnReasons(
        initialGeneration,
        finalPerHeapGeneration,
        budgetExceededGeneration,
        timeTuningGeneration,
        all);
  }

  /** One line for a table: {@code initial 2, final 2, budget 0; induced_fullgc}. */
  public String describe() {
    String gens =
        "initial "
            + initialGeneration
            + ", final "
            + finalPerHeapGeneration
            + ", budget "
            + budgetExceededGeneration;
    return conditions.isEmpty() ? gens : gens + "; " + String.join(",", conditions);
  }
}
