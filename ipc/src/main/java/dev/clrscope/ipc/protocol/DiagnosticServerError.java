package dev.clrscope.ipc.protocol;

/**
 * The HRESULTs a diagnostic server sends in an error reply, with what each means for a user.
 *
 * <p>Codes the table does not list are kept as {@link #OTHER} with the raw value alongside.
 */
public enum DiagnosticServerError {
  /** 0x80131384: the request's payload could not be decoded. */
  BAD_ENCODING(0x80131384, "the runtime could not decode the request"),
  /** 0x80131385: this runtime does not know the command (or this version of it). */
  UNKNOWN_COMMAND(0x80131385, "the runtime does not know this command"),
  /** 0x80131386: the header magic was wrong. */
  UNKNOWN_MAGIC(0x80131386, "the runtime did not recognise the message header"),
  /** 0x80131515: the runtime knows the command but does not support it here. */
  NOT_SUPPORTED(0x80131515, "the runtime does not support this operation"),
  /** 0x80004005: a generic failure. */
  FAIL(0x80004005, "the runtime reported a failure"),
  /** 0x8013135B: the runtime is not ready for this yet. */
  NOT_YET_AVAILABLE(0x8013135B, "the runtime is not ready for this yet"),
  /** 0x80131371: the runtime has not finished starting. */
  RUNTIME_UNINITIALIZED(0x80131371, "the runtime has not finished starting"),
  /** 0x80070057: an argument was rejected. */
  INVALID_ARGUMENT(0x80070057, "the runtime rejected an argument"),
  /** 0x8007007A: a buffer was too small. */
  INSUFFICIENT_BUFFER(0x8007007A, "a buffer in the runtime was too small"),
  /** 0x800000CB: the environment variable does not exist. */
  ENVVAR_NOT_FOUND(0x800000CB, "no such environment variable"),
  /** 0x8013136A: a profiler is already loaded. */
  PROFILER_ALREADY_ACTIVE(0x8013136A, "a profiler is already attached"),
  /** Any HRESULT not in this table. */
  OTHER(0, "the runtime reported an error");

  private final int hresult;
  private final String meaning;

  DiagnosticServerError(int hresult, String meaning) {
    this.hresult = hresult;
    this.meaning = meaning;
  }

  /** The HRESULT on the wire. */
  public int hresult() {
    return hresult;
  }

  /** A short phrase for error messages. */
  public String meaning() {
    return meaning;
  }

  /** The entry for an HRESULT, or {@link #OTHER}. */
  public static DiagnosticServerError fromHresult(int hresult) {
    for (DiagnosticServerError e : values()) {
      if (e != OTHER && e.hresult == hresult) {
        return e;
      }
    }
    return OTHER;
  }
}
