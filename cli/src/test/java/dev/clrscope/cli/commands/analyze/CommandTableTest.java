package dev.clrscope.cli.commands.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CommandTableTest {
  private final CommandTable table = CommandTable.standard();

  @Test
  void sosNamesAndAliasesFindTheirCommandInAnyCase() {
    assertThat(table.find("DumpHeap").name()).isEqualTo("dumpheap");
    assertThat(table.find("!dumpheap").name()).isEqualTo("dumpheap");
    assertThat(table.find("do").name()).isEqualTo("dumpobj");
    assertThat(table.find("da").name()).isEqualTo("dumparray");
    assertThat(table.find("pe").name()).isEqualTo("printexception");
    assertThat(table.find("clrthreads").name()).isEqualTo("threads");
    assertThat(table.find("ti").name()).isEqualTo("timerinfo");
    assertThat(table.find("tpq").name()).isEqualTo("threadpoolqueue");
    assertThat(table.find("tks").name()).isEqualTo("taskstate");
    assertThat(table.find("dcq").name()).isEqualTo("dumpconcurrentqueue");
    assertThat(table.find("dcd").name()).isEqualTo("dumpconcurrentdictionary");
    assertThat(table.find("q").name()).isEqualTo("exit");
    assertThat(table.find("nosuch")).isNull();
  }

  @Test
  void everyNameIsOneCommandsAndEveryCommandSaysHowItIsUsed() {
    List<String> names = table.names();
    assertThat(new HashSet<>(names)).hasSameSizeAs(names);
    Set<String> required =
        Set.of(
            "dumpheap",
            "dumpobj",
            "dumparray",
            "dumpmt",
            "objsize",
            "gcroot",
            "gcwhere",
            "eeheap",
            "threads",
            "clrstack",
            "printexception",
            "finalizequeue",
            "syncblk",
            "dumpasync",
            "help",
            "pstacks",
            "timerinfo",
            "threadpoolqueue",
            "taskstate",
            "dumpconcurrentqueue",
            "dumpconcurrentdictionary",
            "dumpgen");
    assertThat(names).containsAll(required);
    for (SosCommand c : table.all()) {
      assertThat(c.synopsis()).startsWith(c.name());
      assertThat(c.summary()).isNotBlank();
    }
  }
}
