import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.JSRInlinerAdapter;

/**
 * Build step, run on the shaded jar: rewrites class files older than Java 6 (picocli ships Java 5
 * ones) as Java 8 class files with stack maps. CDS refuses to archive pre-Java 6 classes, so
 * without this every run reads and verifies picocli's ~170 classes from the jar.
 *
 * <p>Usage: {@code java -cp ASM_JARS ClassVersionUpgrade JAR}; the jar is rewritten in place.
 */
public final class ClassVersionUpgrade {
  private static final int TARGET = Opcodes.V1_8;

  public static void main(String[] args) throws IOException {
    Path jar = Path.of(args[0]);
    Path out = jar.resolveSibling(jar.getFileName() + ".upgraded");
    int upgraded = 0;
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
        ZipFile in = new ZipFile(jar.toFile());
        ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
      Enumeration<? extends ZipEntry> entries = in.entries();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        byte[] bytes;
        try (InputStream s = in.getInputStream(e)) {
          bytes = s.readAllBytes();
        }
        if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
          int major = ((bytes[6] & 0xFF) << 8) | (bytes[7] & 0xFF);
          if (major < 50) {
            bytes = upgrade(bytes, loader);
            upgraded++;
          }
        }
        ZipEntry copy = new ZipEntry(e.getName());
        copy.setTime(e.getTime());
        zip.putNextEntry(copy);
        zip.write(bytes);
        zip.closeEntry();
      }
    }
    Files.move(out, jar, StandardCopyOption.REPLACE_EXISTING);
    System.out.println("ClassVersionUpgrade: " + upgraded + " class files raised to Java 8 in " + jar);
  }

  private static byte[] upgrade(byte[] bytes, ClassLoader loader) {
    ClassReader reader = new ClassReader(bytes);
    ClassWriter writer =
        new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
          @Override
          protected ClassLoader getClassLoader() {
            return loader;
          }
        };
    ClassVisitor raise =
        new ClassVisitor(Opcodes.ASM9, writer) {
          @Override
          public void visit(
              int version,
              int access,
              String name,
              String signature,
              String superName,
              String[] interfaces) {
            super.visit(TARGET, access, name, signature, superName, interfaces);
          }

          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] exceptions) {
            // Java 5 compilers could still emit JSR/RET for finally blocks; Java 7+ forbids them.
            return new JSRInlinerAdapter(
                super.visitMethod(access, name, descriptor, signature, exceptions),
                access,
                name,
                descriptor,
                signature,
                exceptions);
          }
        };
    reader.accept(raise, ClassReader.SKIP_FRAMES);
    return writer.toByteArray();
  }
}
