package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.source.ElfImage;
import dev.clrscope.symbols.SymbolStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the DAC ({@code libmscordaccore.so}) built with the target's runtime: the one given; else
 * the one beside the {@code libcoreclr.so} the target mapped, when that file's build-id is the one
 * in the target's memory; else the symbol cache; else the symbol server, by the SSQP key of the
 * runtime's build-id. When none is found, the message names the build-id and every place looked.
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
   */
  public static Found locate(Path coreclrPath, byte[] buildId, DacOptions options) {
    if (options.dac() != null) {
      if (!Files.isRegularFile(options.dac())) {
        throw new TargetException(
            Problem.DAC_NOT_FOUND, "the DAC " + options.dac() + " given with --dac is not a file");
      }
      return new Found(options.dac(), "given");
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
      Path beside = coreclrPath.resolveSibling(DAC_FILE);
      byte[] onDisk = ElfImage.buildIdOfFile(coreclrPath);
      if (onDisk != null && Arrays.equals(onDisk, buildId) && Files.isRegularFile(beside)) {
        return new Found(beside, "runtime directory");
      }
      if (onDisk == null) {
        looked.add(
            "the runtime directory " + coreclrPath.getParent() + " (no libcoreclr.so there)");
      } else if (!Arrays.equals(onDisk, buildId)) {
        looked.add(
            "the runtime directory "
                + coreclrPath.getParent()
                + " (its libcoreclr.so is build "
                + ElfImage.hex(onDisk)
                + ")");
      } else {
        looked.add("the runtime directory " + coreclrPath.getParent() + " (no " + DAC_FILE + ")");
      }
    }
    SymbolStore store =
        new SymbolStore(
            options.cacheDir(),
            options.symbolServer(),
            options.downloadTimeout(),
            options.maxDownloadBytes());
    String key = SymbolStore.coreclrKey(DAC_FILE, buildId);
    try {
      SymbolStore.Fetched f = store.fetch(key);
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
}
