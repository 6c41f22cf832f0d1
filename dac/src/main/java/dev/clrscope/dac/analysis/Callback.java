package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.TargetException;

/**
 * What a delegate calls: its method and the object it calls it on.
 *
 * @param method the method with its signature ({@code TargetApp.Worker.OnTick(System.Object)}), or
 *     null when it cannot be named
 * @param target the object the method is called on, or 0 for a static method
 * @param targetType that object's type, or null
 * @param delegate the delegate object
 */
public record Callback(String method, long target, String targetType, long delegate) {
  /** The method's name without its parameters, or null. */
  public String methodName() {
    if (method == null) {
      return null;
    }
    int paren = method.indexOf('(');
    return paren < 0 ? method : method.substring(0, paren);
  }

  /** The method, or {@code ?} with the delegate's address when it has no name. */
  public String display() {
    return method != null ? method : "? (delegate 0x" + Long.toHexString(delegate) + ")";
  }

  /** The x64 page of precode stubs: their data page follows their code page. */
  private static final long STUB_PAGE = 0x4000;

  /**
   * What the delegate {@code d} calls. A static method is reached through a shuffle thunk, with the
   * method's own entry point in {@code _methodPtrAux}; an instance method's entry is {@code
   * _methodPtr}. An entry point is the method's code once compiled, else a precode stub whose data
   * page names the method.
   */
  public static Callback of(ClrProcess p, ClrObject d) {
    long aux = Fields.number(d, "_methodPtrAux", 0);
    long ptr = Fields.number(d, "_methodPtr", 0);
    long target = Fields.reference(d, "_target");
    boolean isStatic = aux != 0;
    String method = methodAt(p, isStatic ? aux : ptr);
    if (method == null && isStatic) {
      method = methodAt(p, ptr);
    }
    if (isStatic || target == d.address()) {
      target = 0;
    }
    ClrObject t = Fields.objectAt(p, target);
    return new Callback(method, target, t == null ? null : t.type().name(), d.address());
  }

  /** The method whose code or precode is at {@code entry}, or null. */
  static String methodAt(ClrProcess p, long entry) {
    if (entry == 0) {
      return null;
    }
    try {
      long md = p.methodDescOf(entry);
      if (md == 0) {
        md = precodeMethodDesc(p, entry);
      }
      return md == 0 ? null : named(p.methodName(md));
    } catch (TargetException e) {
      return null;
    }
  }

  // The MethodDesc a precode stub stands for (x64): a FixupPrecode starts with `jmp [rip+...]`
  // (FF 25) and keeps the MethodDesc in its data at +8, a StubPrecode starts with `mov r10,
  // [rip+...]` (4C 8B 15) and keeps it at +0; the data is one stub page after the code.
  private static long precodeMethodDesc(ClrProcess p, long entry) {
    byte[] code = new byte[3];
    if (p.read(entry, code, 0, 3) != 3) {
      return 0;
    }
    long data = entry + STUB_PAGE;
    try {
      if ((code[0] & 0xff) == 0xff && (code[1] & 0xff) == 0x25) {
        return p.readPointer(data + 8);
      }
      if ((code[0] & 0xff) == 0x4c && (code[1] & 0xff) == 0x8b && (code[2] & 0xff) == 0x15) {
        return p.readPointer(data);
      }
    } catch (TargetException e) {
      return 0;
    }
    return 0;
  }

  // The model names what is no method "<method 0x...>": that is no name.
  private static String named(String name) {
    return name == null || name.startsWith("<method ") ? null : name;
  }
}
