package dev.clrscope.dac.interop;

/** COM result codes the DAC and the data target exchange. */
public final class Hresult {
  public static final int S_OK = 0;
  public static final int S_FALSE = 1;
  public static final int E_NOTIMPL = 0x80004001;
  public static final int E_NOINTERFACE = 0x80004002;
  public static final int E_POINTER = 0x80004003;
  public static final int E_FAIL = 0x80004005;
  public static final int E_INVALIDARG = 0x80070057;

  private Hresult() {}

  /** Whether a result is a success (S_OK, S_FALSE and other non-negative codes). */
  public static boolean succeeded(int hr) {
    return hr >= 0;
  }

  /** {@code 0x80004005}-style text. */
  public static String hex(int hr) {
    return "0x" + Integer.toHexString(hr);
  }
}
