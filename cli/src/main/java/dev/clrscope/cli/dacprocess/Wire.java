package dev.clrscope.cli.dacprocess;

import dev.clrscope.cli.render.Terminal;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire between the front (the process the user talks to) and the DAC process: frames of one
 * kind byte, a length (unsigned 32 bits, big-endian) and that many bytes, over the DAC process's
 * stdin (the front's requests) and stdout (its replies). Every length is checked against {@link
 * #MAX_BODY} and the bytes that follow; a frame that breaks the rules ends the conversation ({@link
 * Broken}), never a guess.
 */
final class Wire {
  /** The largest body of one frame. Output is sent in pieces well below it. */
  static final int MAX_BODY = 1 << 20;

  private Wire() {}

  /** What a frame is; the code is its first byte. */
  enum Kind {
    // The front's requests.
    /** A command line to run: the front's terminal, then the words ({@link Run}). */
    RUN(1),
    /** A line the DAC process asked for: its text and the terminal's width then. */
    LINE(2),
    /** No more lines (Ctrl+D at the prompt, the end of stdin). */
    NO_MORE_LINES(3),
    /**
     * Ctrl+C while the command said it can take one ({@link #CANCELLABLE}): the part it named ends
     * (the command at the prompt, triage's watch), the rest goes on.
     */
    CANCEL(4),
    /** End now: the target is let go and the process exits (SIGTERM, SIGINT, output closed). */
    STOP(5),

    // The DAC process's replies.
    /** Bytes for the front's stdout. */
    OUT(16),
    /** Bytes for the front's stderr. */
    ERR(17),
    /** The command's qualified name, once parsed ({@code clrscope analyze}). */
    NAME(18),
    /** What it is about to read, before it opens it: a core or a live process ({@link Target}). */
    TARGET(19),
    /** One command of several (analyze's) has written all its output. */
    DONE(20),
    /** It needs a line: from the prompt or from stdin ({@link Ask}). */
    ASK(21),
    /** The command line reads nothing through the DAC: the front runs it itself. */
    NOT_MINE(22),
    /** The command line ended with this exit code. */
    END(23),
    /**
     * Whether a Ctrl+C now ends a part of the command, not the run ({@link #flag(boolean)}): the
     * front sends the next one on as CANCEL.
     */
    CANCELLABLE(24),
    /**
     * A CANCEL came after the part it was for had ended: outside the prompt, the front stops the
     * run, as for a Ctrl+C then.
     */
    CANCEL_MISSED(25);

    final int code;

    Kind(int code) {
      this.code = code;
    }

    static Kind of(int code) {
      for (Kind k : values()) {
        if (k.code == code) {
          return k;
        }
      }
      return null;
    }
  }

  /** One frame. */
  record Frame(Kind kind, byte[] body) {
    /** The body as one string (NAME). */
    String text() throws Broken {
      Reader r = new Reader(body);
      String s = r.string();
      r.end();
      return s;
    }
  }

  /** A frame that breaks the rules, or a conversation cut off in the middle of one. */
  static final class Broken extends IOException {
    private static final long serialVersionUID = 1L;

    Broken(String message) {
      super(message);
    }
  }

  /**
   * Reads the next frame.
   *
   * @return null at the end of the stream, between frames
   * @throws Broken when the frame is of no known kind, too long, or cut off
   */
  static Frame read(DataInputStream in) throws IOException {
    int code = in.read();
    if (code < 0) {
      return null;
    }
    Kind kind = Kind.of(code);
    if (kind == null) {
      throw new Broken("a frame of unknown kind " + code);
    }
    int length;
    byte[] body;
    try {
      length = in.readInt();
      if (length < 0 || length > MAX_BODY) {
        throw new Broken("a " + kind + " frame of " + Integer.toUnsignedString(length) + " bytes");
      }
      body = new byte[length];
      in.readFully(body);
    } catch (EOFException e) {
      throw new Broken("a " + kind + " frame cut off");
    }
    return new Frame(kind, body);
  }

  /** Writes one frame; the caller holds the stream's lock and flushes. */
  static void write(OutputStream out, Kind kind, byte[] body, int offset, int length)
      throws IOException {
    if (length > MAX_BODY) {
      throw new IllegalArgumentException(kind + " body of " + length + " bytes");
    }
    byte[] head = {
      (byte) kind.code,
      (byte) (length >>> 24),
      (byte) (length >>> 16),
      (byte) (length >>> 8),
      (byte) length
    };
    out.write(head);
    out.write(body, offset, length);
  }

  /** Writes one frame with a whole body. */
  static void write(OutputStream out, Kind kind, byte[] body) throws IOException {
    write(out, kind, body, 0, body.length);
  }

  /** Builds a body: 32-bit integers, bytes and UTF-8 strings (a length, then the bytes). */
  static final class Writer {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    Writer integer(int value) {
      bytes.write(value >>> 24);
      bytes.write(value >>> 16);
      bytes.write(value >>> 8);
      bytes.write(value);
      return this;
    }

    Writer flag(boolean value) {
      bytes.write(value ? 1 : 0);
      return this;
    }

    Writer string(String value) {
      byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
      integer(utf8.length);
      bytes.write(utf8, 0, utf8.length);
      return this;
    }

    byte[] body() {
      return bytes.toByteArray();
    }
  }

  /** Reads a body {@link Writer} built, checking each length against the bytes left. */
  static final class Reader {
    private final ByteBuffer b;

    Reader(byte[] body) {
      b = ByteBuffer.wrap(body);
    }

    int integer() throws Broken {
      if (b.remaining() < 4) {
        throw new Broken("a body cut short");
      }
      return b.getInt();
    }

    boolean flag() throws Broken {
      if (!b.hasRemaining()) {
        throw new Broken("a body cut short");
      }
      byte v = b.get();
      if (v != 0 && v != 1) {
        throw new Broken("a flag of " + v);
      }
      return v == 1;
    }

    String string() throws Broken {
      int length = integer();
      if (length < 0 || length > b.remaining()) {
        throw new Broken("a string of " + length + " bytes where " + b.remaining() + " are left");
      }
      String s = new String(b.array(), b.position(), length, StandardCharsets.UTF_8);
      b.position(b.position() + length);
      return s;
    }

    /** Checks nothing is left over. */
    void end() throws Broken {
      if (b.hasRemaining()) {
        throw new Broken(b.remaining() + " bytes after a body's end");
      }
    }
  }

  /**
   * A command line to run.
   *
   * @param terminal what the front found of its terminal (the DAC process's streams are pipes)
   * @param resumed whether it goes on from a DAC process that ended under it (analyze: straight to
   *     the prompt, no {@code -c} commands and no greeting again)
   */
  record Run(List<String> words, Terminal.Facts terminal, boolean resumed) {
    byte[] body() {
      Writer w =
          new Writer()
              .flag(terminal.stdin())
              .flag(terminal.stdout().terminal())
              .integer(terminal.stdout().rows())
              .integer(terminal.stdout().columns())
              .flag(terminal.stderr())
              .flag(resumed)
              .integer(words.size());
      words.forEach(w::string);
      return w.body();
    }

    static Run of(byte[] body) throws Broken {
      Reader r = new Reader(body);
      boolean stdin = r.flag();
      Terminal.Size stdout = new Terminal.Size(r.flag(), r.integer(), r.integer());
      Terminal.Facts t = new Terminal.Facts(stdin, stdout, r.flag());
      boolean resumed = r.flag();
      int count = r.integer();
      if (count < 0 || count > body.length / 4) {
        throw new Broken(count + " words in a " + body.length + "-byte request");
      }
      List<String> words = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        words.add(r.string());
      }
      r.end();
      return new Run(words, t, resumed);
    }
  }

  /**
   * What the DAC process is about to read.
   *
   * @param pid the live process's id, or 0 for a core
   * @param what {@code core /path/app.core} or {@code process 1234}
   */
  record Target(int pid, String what) {
    byte[] body() {
      return new Writer().integer(pid).string(what).body();
    }

    static Target of(byte[] body) throws Broken {
      Reader r = new Reader(body);
      Target t = new Target(r.integer(), r.string());
      r.end();
      return t;
    }

    boolean isLive() {
      return pid > 0;
    }
  }

  /**
   * A line asked for.
   *
   * @param prompt whether a person types it at the prompt (else it is stdin's next line)
   * @param text what the prompt shows
   */
  record Ask(boolean prompt, String text) {
    byte[] body() {
      return new Writer().flag(prompt).string(text).body();
    }

    static Ask of(byte[] body) throws Broken {
      Reader r = new Reader(body);
      Ask a = new Ask(r.flag(), r.string());
      r.end();
      return a;
    }
  }

  /**
   * A line given.
   *
   * @param width the terminal's width as the line was read (0 for no terminal)
   */
  record Line(String text, int width) {
    byte[] body() {
      return new Writer().integer(width).string(text).body();
    }

    static Line of(byte[] body) throws Broken {
      Reader r = new Reader(body);
      int width = r.integer();
      Line l = new Line(r.string(), width);
      r.end();
      return l;
    }
  }

  /** An exit code as a body. */
  static byte[] code(int code) {
    return new Writer().integer(code).body();
  }

  /** The exit code of an END body. */
  static int code(byte[] body) throws Broken {
    Reader r = new Reader(body);
    int code = r.integer();
    r.end();
    return code;
  }

  /** A flag as a body (CANCELLABLE). */
  static byte[] flag(boolean value) {
    return new Writer().flag(value).body();
  }

  /** The flag of a CANCELLABLE body. */
  static boolean flag(byte[] body) throws Broken {
    Reader r = new Reader(body);
    boolean value = r.flag();
    r.end();
    return value;
  }

  /** A string as a body (NAME). */
  static byte[] text(String text) {
    return new Writer().string(text).body();
  }

  /** Reads whole frames from {@code in}. */
  static DataInputStream reading(InputStream in) {
    return new DataInputStream(new java.io.BufferedInputStream(in, 1 << 16));
  }
}
