package dev.clrscope.nettrace;

/** Kinds of the optional items of a V6 thread row, mirroring the spec's table. */
enum ThreadItemKind {
  /** 1: string name. */
  NAME(1),
  /** 2: varuint64 OS process id. */
  OS_PROCESS_ID(2),
  /** 3: varuint64 OS thread id. */
  OS_THREAD_ID(3),
  /** 4: string key, string value. */
  KEY_VALUE(4);

  final int code;

  ThreadItemKind(int code) {
    this.code = code;
  }

  /** The kind with this code, or null. */
  static ThreadItemKind fromCode(int code) {
    for (ThreadItemKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    return null;
  }
}
