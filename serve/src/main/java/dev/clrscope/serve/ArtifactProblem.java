package dev.clrscope.serve;

/**
 * Why an artifact request was refused or failed, as the HTTP answer says it: a status and one line
 * for {@code {"error": …}} (400 a bad parameter, 404 no such process, 409 the runtime or the system
 * refused, 429 busy, 503 stopping).
 */
public final class ArtifactProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  /** A refusal with its HTTP status. */
  public ArtifactProblem(int status, String message) {
    super(message);
    this.status = status;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }
}
