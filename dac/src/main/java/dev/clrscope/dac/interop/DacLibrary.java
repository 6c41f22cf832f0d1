package dev.clrscope.dac.interop;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import java.nio.file.Path;

/**
 * A DAC ({@code libmscordaccore.so}) loaded and initialised, ready to create its {@code
 * IXCLRDataProcess} over a data target. The library is opened with the C loader, not JNA's {@link
 * com.sun.jna.NativeLibrary}, and never closed: unloading it runs the PAL's thread-exit
 * destructors, which crash the process (as ClrMD found). Loading needs no target, so for a live
 * process it is done before the process is paused.
 */
public final class DacLibrary {
  /** The DAC's answer when the runtime's memory is not what it expects. */
  private static final int CORDBG_E_MISSING_DEBUGGER_EXPORTS = 0x80131c4f;

  private final Path path;
  private final Function create;

  private DacLibrary(Path path, Function create) {
    this.path = path;
    this.create = create;
  }

  /** The library file. */
  public Path path() {
    return path;
  }

  /**
   * Opens {@code dac} and initialises its PAL.
   *
   * @throws TargetException {@link Problem#DAC_FAILED} when it cannot be loaded or is no DAC
   */
  public static DacLibrary load(Path dac) {
    Pointer handle = LibC.INSTANCE.dlopen(dac.toString(), LibC.RTLD_LAZY);
    if (handle == null) {
      String why = LibC.INSTANCE.dlerror();
      throw new TargetException(
          Problem.DAC_FAILED,
          "cannot load the DAC "
              + dac
              + ": "
              + (why == null ? "the C loader gave no reason" : why));
    }
    Pointer init = LibC.INSTANCE.dlsym(handle, "DAC_PAL_InitializeDLL");
    if (init == null) {
      init = LibC.INSTANCE.dlsym(handle, "PAL_InitializeDLL");
    }
    if (init != null) {
      Pointer dllMain = LibC.INSTANCE.dlsym(handle, "DllMain");
      if (dllMain == null) {
        throw new TargetException(Problem.DAC_FAILED, "the DAC " + dac + " exports no DllMain");
      }
      // DLL_PROCESS_ATTACH: initialises the DAC's PAL (again harmlessly if loaded before).
      Function.getFunction(dllMain).invokeInt(new Object[] {handle, 1, Pointer.NULL});
    }
    Pointer create = LibC.INSTANCE.dlsym(handle, "CLRDataCreateInstance");
    if (create == null) {
      throw new TargetException(
          Problem.DAC_FAILED, dac + " is not a DAC: it exports no CLRDataCreateInstance");
    }
    return new DacLibrary(dac, Function.getFunction(create));
  }

  /**
   * Creates the DAC's process interface over {@code target}.
   *
   * @throws TargetException {@link Problem#DAC_FAILED} when the DAC refuses the target
   */
  public ComObject<DacInterfaces.IXCLRDataProcess> createProcess(
      DataTargetObject target, String buildId) {
    Memory out = new Memory(8);
    out.setPointer(0, null);
    int hr =
        create.invokeInt(
            new Object[] {
              DacInterfaces.IXCLRDataProcess.ID.iid().toNative(), target.pointer(), out
            });
    Pointer process = out.getPointer(0);
    if (hr != Hresult.S_OK || process == null) {
      String why =
          hr == CORDBG_E_MISSING_DEBUGGER_EXPORTS
              ? "the runtime's memory is not what this DAC expects: the DAC is of another build"
                  + " than runtime build-id "
                  + buildId
                  + ", or the dump lacks the runtime's data"
              : "CLRDataCreateInstance failed with " + Hresult.hex(hr);
      throw new TargetException(
          Problem.DAC_FAILED, "the DAC " + path + " refused the target: " + why);
    }
    return new ComObject<>(process, DacInterfaces.IXCLRDataProcess.ID);
  }
}
