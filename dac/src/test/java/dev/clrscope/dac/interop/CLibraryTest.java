package dev.clrscope.dac.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CLibraryTest {
  @Test
  void theCLibraryIsTheOneThisProcessHasMappedAndAnswers() throws Exception {
    // The C library is loaded by the path of the one mapped here, so JNA has no search path to
    // work out (and runs no ldconfig): its property set, if nothing set it before.
    String maps = Files.readString(Path.of("/proc/self/maps"));
    assertThat(maps).containsPattern("/libc(\\.so\\.|\\.musl-)");
    LibC libc = LibC.INSTANCE;
    assertThat(System.getProperty("jna.platform.library.path")).isNotNull();
    // The effective user id, as the JDK knows it from the owner of a file this process makes.
    Path mine = Files.createTempFile("clibrary", ".test");
    try {
      Object owner = Files.getAttribute(mine, "unix:uid");
      assertThat(libc.geteuid()).isEqualTo(owner);
    } finally {
      Files.delete(mine);
    }
  }
}
