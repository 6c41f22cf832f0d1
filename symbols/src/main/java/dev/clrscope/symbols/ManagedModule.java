package dev.clrscope.symbols;

/**
 * A managed module as the runtime names it, enough to find its PDB: the assembly's path, and the
 * PDB it was built with as the runtime read it from the assembly (ModuleLoad_V2 and ModuleDCEnd_V2:
 * ManagedPdbSignature and ManagedPdbBuildPath) when known.
 *
 * @param ilPath the assembly (IL image) the runtime loaded, or null (a dynamic module)
 * @param pdbId the PDB's GUID (the stamp is not in the events), or null when not known
 * @param pdbPath the PDB's path as the compiler wrote it into the assembly, or null
 */
public record ManagedModule(String ilPath, PdbId pdbId, String pdbPath) {
  /** The assembly's file name, for messages. */
  public String name() {
    if (ilPath == null || ilPath.isEmpty()) {
      return "a dynamic module";
    }
    return SourceLine.fileName(ilPath);
  }

  // Written out: see SourceLine.
  @Override
  public boolean equals(Object o) {
    return o instanceof ManagedModule m
        && java.util.Objects.equals(m.ilPath, ilPath)
        && java.util.Objects.equals(m.pdbId, pdbId)
        && java.util.Objects.equals(m.pdbPath, pdbPath);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hashCode(ilPath) * 31 + java.util.Objects.hashCode(pdbPath);
  }
}
