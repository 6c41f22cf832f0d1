package dev.clrscope.ipc.client;

/** What EnablePerfMap makes the runtime write, for native profilers such as perf. */
public enum PerfMapType {
  /** 1: both a jitdump file and a perf map. */
  ALL(1),
  /** 2: {@code /tmp/jit-PID.dump} only. */
  JITDUMP(2),
  /** 3: {@code /tmp/perf-PID.map} only. */
  PERFMAP(3);

  private final int code;

  PerfMapType(int code) {
    this.code = code;
  }

  /** The value on the wire. */
  public int code() {
    return code;
  }
}
