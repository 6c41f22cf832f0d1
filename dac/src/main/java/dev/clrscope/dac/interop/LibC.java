package dev.clrscope.dac.interop;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Pointer;

/**
 * The C library functions this module calls: the dynamic loader (to hold the DAC's raw handle and
 * never close it) and ptrace. Calls that set {@code errno} throw {@link LastErrorException}.
 */
public interface LibC extends Library {
  LibC INSTANCE = CLibrary.load();

  int RTLD_LAZY = 1;
  int RTLD_NOW = 2;

  int PTRACE_GETREGS = 12;
  int PTRACE_DETACH = 17;
  int PTRACE_SEIZE = 0x4206;
  int PTRACE_INTERRUPT = 0x4207;

  int WALL = 0x40000000;
  int WNOHANG = 1;

  int EPERM = 1;
  int ESRCH = 3;
  int EINTR = 4;
  int ECHILD = 10;

  Pointer dlopen(String file, int mode);

  Pointer dlsym(Pointer handle, String name);

  String dlerror();

  long ptrace(int request, int pid, Pointer addr, Pointer data) throws LastErrorException;

  int waitpid(int pid, int[] status, int options) throws LastErrorException;

  int geteuid();
}
