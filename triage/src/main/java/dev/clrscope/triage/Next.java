package dev.clrscope.triage;

import java.util.ArrayList;
import java.util.List;

/** The commands a finding suggests, spelled as a user types them in a shell. */
final class Next {
  private Next() {}

  /** {@code clrscope analyze TARGET -c C1 -c "C 2"}. */
  static String analyze(TriageTarget target, String... commands) {
    List<String> words = new ArrayList<>();
    words.add("clrscope analyze " + target.commandTarget());
    for (String c : commands) {
      words.add("-c " + quoted(c));
    }
    return String.join(" ", words);
  }

  /** {@code clrscope COMMAND TARGET ARGS}: another command on the same target. */
  static String command(TriageTarget target, String command, String... args) {
    StringBuilder sb = new StringBuilder("clrscope ").append(command).append(' ');
    sb.append(target.commandTarget());
    for (String a : args) {
      sb.append(' ').append(quoted(a));
    }
    return sb.toString();
  }

  /** A word as a shell reads it: as it is when safe, else in double quotes. */
  static String quoted(String word) {
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (!(Character.isLetterOrDigit(c) || "-_./:=,+@%".indexOf(c) >= 0)) {
        return "\"" + word.replace("\\", "\\\\").replace("\"", "\\\"").replace("$", "\\$") + "\"";
      }
    }
    return word;
  }

  /** {@code 0x7f12...}. */
  static String hex(long address) {
    return "0x" + Long.toHexString(address);
  }
}
