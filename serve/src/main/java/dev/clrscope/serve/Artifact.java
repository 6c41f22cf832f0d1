package dev.clrscope.serve;

import java.nio.file.Path;

/**
 * A collected artifact.
 *
 * @param file where it is (0600, in the artifact directory)
 * @param fileName the name a download gets (Content-Disposition)
 * @param contentType its media type
 * @param bytes its size
 * @param pid the process it came from
 */
public record Artifact(Path file, String fileName, String contentType, long bytes, long pid) {}
