package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.source.ElfImage;
import dev.clrscope.symbols.FileTrust;
import dev.clrscope.symbols.SymbolStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the DAC ({@code libmscordaccore.so}) built with the target's runtime, and only one it can
 * trust: the one given; else the one beside the {@code libcoreclr.so} the target mapped, when that
 * file's build-id is the one in the target's memory and it and every directory above it are root's
 * or the user's and writable by no one else ({@link FileTrust}); else the symbol cache; else the
 * symbol server, by the SSQP key of the runtime's build-id. Whatever is found is checked before it
 * is returned ({@link DacFile}): a DAC, of the target's runtime version. A DAC passed over is said
 * through {@link DacOptions#notes()}, and the search goes on; when none is found, the message names
 * the build-id and every place looked.
 */
public final class DacLocator {
  /** The DAC's file name. */
  public static final String DAC_FILE = "libmscordaccore.so";

  private DacLocator() {}

  /** A DAC found, and how. */
  public record Found(Path dac, String how) {}

  /**
   * @param coreclrPath where the target mapped libcoreclr.so, as this machine sees it
   * @param buildId libcoreclr.so's build-id in the target's memory (null when unreadable)
   * @param runtimeVersion the runtime's {@code @(#)Version} text ({@code 10.0.1226.42308 @Commit:
   *     95017c...}), read from the target, or null when it could not be read
   */
  public static Found locate(
      Path coreclrPath, byte[] buildId, String runtimeVersion, DacOptions options) {
    if (options.dac() != null) {
      return given(options.dac(), runtimeVersion);
    }
    if (buildId == null) {
      throw new TargetException(
          Problem.DAC_NOT_FOUND,
          "the runtime's build-id is not readable in the target (libcoreclr.so's headers are not in"
              + " the dump): give the DAC of its runtime build with --dac PATH");
    }
    String id = ElfImage.hex(buildId);
    List<String> looked = new ArrayList<>();
    if (coreclrPath != null) {
      Found beside = runtimeDirectory(coreclrPath, buildId, runtimeVersion, options, looked);
      if (beside != null) {
        return beside;
      }
    }
    SymbolStore store =
        new SymbolStore(
            options.cacheDir(), options.server(), options.maxDownloadBytes(), options.notes());
    String key = SymbolStore.coreclrKey(DAC_FILE, buildId);
    try {
      SymbolStore.Fetched f = store.fetch(key, file -> DacFile.problem(file, runtimeVersion));
      return new Found(f.file(), f.downloaded() ? "downloaded from " + store.url(key) : "cache");
    } catch (SymbolStore.NotFound e) {
      looked.add(e.getMessage());
    }
    throw new TargetException(
        Problem.DAC_NOT_FOUND,
        "no DAC for runtime build-id "
            + id
            + ": "
            + String.join("; ", looked)
            + "; give --dac PATH (the "
            + DAC_FILE
            + " of that runtime build) or --symbol-server URL");
  }

  /** {@code --dac}: the user's choice, used when it is a DAC of the target's runtime. */
  private static Found given(Path dac, String runtimeVersion) {
    if (!Files.isRegularFile(dac)) {
      throw new TargetException(
          Problem.DAC_NOT_FOUND, "the DAC " + dac + " given with --dac is not a file");
    }
    String problem = DacFile.problem(dac, runtimeVersion);
    if (problem != null) {
      throw new TargetException(
          Problem.DAC_FAILED,
          "the DAC "
              + dac
              + " given with --dac "
              + problem
              + ": give the "
              + DAC_FILE
              + " of the target's runtime build, or leave --dac out to have it found");
    }
    return new Found(dac, "given");
  }

  /**
   * The DAC beside the target's libcoreclr.so when it is of the same build and trusted; else null,
   * with what was found there added to {@code looked} (and said, when a DAC there was passed over).
   */
  private static Found runtimeDirectory(
      Path coreclrPath,
      byte[] buildId,
      String runtimeVersion,
      DacOptions options,
      List<String> looked) {
    Path dir = coreclrPath.getParent();
    Path beside = coreclrPath.resolveSibling(DAC_FILE);
    byte[] onDisk = ElfImage.buildIdOfFile(coreclrPath);
    if (onDisk == null) {
      looked.add("the runtime directory " + dir + " (no libcoreclr.so there)");
      return null;
    }
    if (!Arrays.equals(onDisk, buildId)) {
      looked.add(
          "the runtime directory "
              + dir
              + " (its libcoreclr.so is build "
              + ElfImage.hex(onDisk)
              + ")");
      return null;
    }
    if (!Files.isRegularFile(beside)) {
      looked.add("the runtime directory " + dir + " (no " + DAC_FILE + ")");
      return null;
    }
    String why;
    try {
      FileTrust.Checked checked =
          FileTrust.check(beside, FileTrust.Kind.REGULAR_FILE, FileTrust.currentUid());
      if (checked.trusted()) {
        // The path with no link left, every part of it root's or the user's: what is loaded is
        // what was checked.
        String problem = DacFile.problem(checked.real(), runtimeVersion);
        if (problem == null) {
          return new Found(checked.real(), "runtime directory");
        }
        why = "it " + problem;
      } else {
        why = checked.untrusted().text();
      }
    } catch (IOException e) {
      why = "it cannot be checked: " + e.getMessage();
    }
    options
        .notes()
        .accept(
            "passed over the DAC "
                + beside
                + " beside the target's runtime: "
                + why
                + "; trying the symbol cache and the symbol server");
    looked.add("the runtime directory " + dir + " (its DAC passed over: " + why + ")");
    return null;
  }
}
