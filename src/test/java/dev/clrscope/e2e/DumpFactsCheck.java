package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrThread;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.ExceptionInfo;
import dev.clrscope.dac.HeapStatistics;
import dev.clrscope.dac.Root;
import dev.clrscope.dac.RootKind;
import dev.clrscope.dac.RootPath;
import dev.clrscope.dac.StackFrame;
import dev.clrscope.dac.Value;
import dev.clrscope.dac.analysis.AsyncStateMachines;
import dev.clrscope.dac.analysis.ConcurrentCollections;
import dev.clrscope.dac.analysis.TaskStates;
import dev.clrscope.dac.analysis.Timers;
import java.util.ArrayList;
import java.util.List;

/**
 * The facts TargetApp's {@code facts N} set up (see DumpFacts.cs), asserted exactly through the
 * analyze model, the same way for a core file and for a paused live process.
 */
final class DumpFactsCheck {
  private DumpFactsCheck() {}

  static void assertFacts(DacSession p, JsonNode facts, ReadyInfo ready) {
    int n = facts.get("items").asInt();
    String itemType = facts.get("itemType").asText();
    String holderType = facts.get("holderType").asText();

    assertThat(p.runtime().info().productVersion()).isEqualTo(ready.runtimeVersion());
    assertThat(p.runtime().info().fileVersion()).startsWith(ready.runtimeVersion().substring(0, 5));

    // The heap: exactly N items, one array of them, one thread-static object.
    HeapStatistics stats = p.heap().statistics();
    assertThat(stats.walk().complete()).as("%s", stats.walk().problems()).isTrue();
    ClrType item = p.runtime().typeByName(itemType);
    assertThat(item).isNotNull();
    assertThat(stats.of(itemType).count()).isEqualTo(n);
    assertThat(stats.of(itemType).totalSize()).isEqualTo((long) n * item.baseSize());
    assertThat(stats.of(itemType + "[]").count()).isEqualTo(1);
    assertThat(stats.of(itemType + "[]").totalSize())
        .isEqualTo(p.runtime().typeByName(itemType + "[]").baseSize() + 8L * n);
    assertThat(stats.of(facts.get("threadStaticType").asText()).count()).isEqualTo(1);

    // The static field by name is the root of the array, and the array holds the N items in order.
    List<Root> statics = new ArrayList<>();
    p.heap().staticRoots(statics::add);
    Root itemsRoot = only(statics, holderType, facts.get("staticField").asText());
    assertThat(itemsRoot.describe())
        .isEqualTo("static " + holderType + "." + facts.get("staticField").asText());
    ClrObject array = p.heap().object(itemsRoot.object());
    assertThat(array.type().name()).isEqualTo(itemType + "[]");
    assertThat(array.length()).isEqualTo(n);
    for (int i = 0; i < n; i++) {
      ClrObject o = p.heap().object(((Value.Reference) array.element(i)).address());
      assertThat(o.type()).isSameAs(item);
      assertThat(o.intField("Index")).isEqualTo(i);
      assertThat(o.longField("Square")).isEqualTo((long) i * i);
      assertThat(o.stringField("Name")).isEqualTo("item-" + i);
      assertThat(o.doubleField("Ratio")).isEqualTo(i / 4.0);
      assertThat(o.booleanField("Even")).isEqualTo(i % 2 == 0);
      assertThat(o.charField("Letter")).isEqualTo((char) ('a' + i % 26));
      ClrValue where = o.structField("Where");
      assertThat(where.intField("X")).isEqualTo(i);
      assertThat(where.intField("Y")).isEqualTo(-i);
    }
    // References, from the GC descriptors: the array holds the items, each item its name only.
    List<Long> held = new ArrayList<>();
    array.references((target, offset) -> held.add(target));
    assertThat(held).hasSize(n);
    for (int i = 0; i < n; i++) {
      assertThat(held.get(i)).isEqualTo(((Value.Reference) array.element(i)).address());
    }
    ClrObject first = p.heap().object(held.get(0));
    List<Long> fromItem = new ArrayList<>();
    first.references((target, offset) -> fromItem.add(target));
    assertThat(fromItem).containsExactly(first.referenceField("Name"));
    long[] walked = new long[2];
    p.heap()
        .walk(
            o -> {
              if (o.type() == item) {
                o.references(
                    (target, offset) -> {
                      walked[0]++;
                      walked[1] += offset == 8 + item.field("Name").offset() ? 1 : 0;
                    });
              }
            });
    assertThat(walked).containsExactly(n, n);
    // objsize: the array, its items and their names.
    ClrHeap.ObjectSize size = p.heap().objectSize(array.address());
    assertThat(size.objects()).isEqualTo(1 + 2L * n);
    long names = 0;
    for (long h : held) {
      names += p.heap().object(p.heap().object(h).referenceField("Name")).size();
    }
    assertThat(size.bytes()).isEqualTo(array.size() + (long) n * item.baseSize() + names);
    List<String> itemFields = item.fields().stream().map(ClrField::name).toList();
    assertThat(itemFields)
        .containsExactlyInAnyOrder("Index", "Square", "Name", "Ratio", "Even", "Letter", "Where");

    // Static fields' values: a number and a string.
    ClrType holder = p.runtime().typeByName(holderType);
    ClrField count = holder.staticField(facts.get("countField").asText());
    assertThat(((Value.Primitive) p.runtime().staticValue(holder, count)).asInt())
        .isEqualTo(facts.get("count").asInt());
    ClrField label = holder.staticField(facts.get("labelField").asText());
    long labelString = ((Value.Reference) p.runtime().staticValue(holder, label)).address();
    assertThat(p.heap().object(labelString).asString()).isEqualTo(facts.get("label").asText());

    // The blocked thread: its ids, the method it waits in, the thread-static object it alone holds.
    int tid = facts.get("blockedTid").asInt();
    ClrThread blocked = p.runtime().thread(tid);
    assertThat(blocked).isNotNull();
    assertThat(blocked.managedId()).isEqualTo(facts.get("blockedManagedId").asInt());
    List<String> methods =
        p.runtime().stack(tid).stream().map(StackFrame::methodName).filter(m -> m != null).toList();
    assertThat(methods).contains(facts.get("blockedMethod").asText());
    assertThat(methods.get(methods.indexOf(facts.get("blockedMethod").asText()) - 1))
        .isEqualTo("System.Threading.Thread.Sleep");
    List<Root> threadStatics = new ArrayList<>();
    p.heap().threadStaticRoots(threadStatics::add);
    Root perThread = only(threadStatics, holderType, facts.get("threadStaticField").asText());
    assertThat(perThread.osThreadId()).isEqualTo(tid);
    ClrObject threadFact = p.heap().object(perThread.object());
    assertThat(threadFact.type().name()).isEqualTo(facts.get("threadStaticType").asText());
    assertThat(threadFact.longField("Marker")).isEqualTo(facts.get("threadMarker").asLong());
    ClrField perThreadField = holder.staticField(facts.get("threadStaticField").asText());
    assertThat(
            ((Value.Reference) p.runtime().threadStaticValue(holder, perThreadField, blocked))
                .address())
        .isEqualTo(perThread.object());
    // The lock it holds is a local of the frame it waits in.
    long locked =
        ((Value.Reference) p.runtime().staticValue(holder, holder.staticField("Locked"))).address();
    List<Root> stackRoots = new ArrayList<>();
    p.heap().stackRoots(tid, stackRoots::add);
    assertThat(stackRoots)
        .anySatisfy(
            r -> {
              assertThat(r.kind()).isEqualTo(RootKind.STACK);
              assertThat(r.object()).isEqualTo(locked);
              assertThat(r.frame().methodName()).isEqualTo(facts.get("blockedMethod").asText());
            });

    // syncblk: the lock on Locked (its hash code set first, so the lock is a sync block) is held
    // once by the blocked thread.
    assertThat(p.runtime().syncBlocks())
        .anySatisfy(
            sb -> {
              assertThat(sb.object()).isEqualTo(locked);
              assertThat(sb.isOwned()).isTrue();
              assertThat(sb.owningOsThreadId()).isEqualTo(tid);
              assertThat(sb.recursion()).isEqualTo(1);
            });

    // The analyses: a concurrent queue's items, a concurrent dictionary's entries, the timer, the
    // async method waiting.
    ClrObject queue =
        p.heap()
            .object(
                ((Value.Reference)
                        p.runtime()
                            .staticValue(
                                holder, holder.staticField(facts.get("queueField").asText())))
                    .address());
    List<String> queued = new ArrayList<>();
    for (Value v : ConcurrentCollections.queueItems(p.heap(), queue)) {
      queued.add(p.heap().object(((Value.Reference) v).address()).asString());
    }
    List<String> expectedQueue = new ArrayList<>();
    for (int i = 0; i < facts.get("queueItems").asInt(); i++) {
      expectedQueue.add("q-" + i);
    }
    assertThat(queued).isEqualTo(expectedQueue);
    ClrObject dictionary =
        p.heap()
            .object(
                ((Value.Reference)
                        p.runtime()
                            .staticValue(
                                holder, holder.staticField(facts.get("dictionaryField").asText())))
                    .address());
    java.util.Map<Integer, String> entries = new java.util.TreeMap<>();
    for (ConcurrentCollections.Entry e :
        ConcurrentCollections.dictionaryEntries(p.heap(), dictionary)) {
      entries.put(
          ((Value.Primitive) e.key()).asInt(),
          p.heap().object(((Value.Reference) e.value()).address()).asString());
    }
    java.util.Map<Integer, String> expectedEntries = new java.util.TreeMap<>();
    for (int i = 0; i < facts.get("dictionaryEntries").asInt(); i++) {
      expectedEntries.put(i, "d-" + i);
    }
    assertThat(entries).isEqualTo(expectedEntries);
    List<Timers.TimerInfo> timers =
        Timers.all(p.heap()).stream()
            .filter(t -> t.dueTimeMs() == facts.get("timerDueMs").asLong())
            .toList();
    assertThat(timers).hasSize(1);
    assertThat(timers.get(0).periodMs()).isEqualTo(facts.get("timerPeriodMs").asLong());
    assertThat(timers.get(0).callback())
        .isEqualTo(facts.get("timerCallback").asText() + "(System.Object)");
    assertThat(timers.get(0).callbackTarget()).isZero();
    assertThat(p.heap().object(timers.get(0).state()).asString())
        .isEqualTo(facts.get("timerState").asText());
    List<AsyncStateMachines.AsyncMethod> waiting =
        AsyncStateMachines.all(p.heap()).stream()
            .filter(m -> m.method().equals(facts.get("asyncMethod").asText()))
            .toList();
    assertThat(waiting).hasSize(1);
    assertThat(waiting.get(0).state()).isZero();
    assertThat(waiting.get(0).status()).isEqualTo("WaitingForActivation");
    int taskFlags = p.heap().object(waiting.get(0).box()).intField("m_stateFlags");
    assertThat(TaskStates.flags(taskFlags)).contains("PromiseTask", "WaitingForActivation");

    // Root paths: the items by the static field's name, the thread's object by its thread static.
    long someItem = held.get(n / 2);
    List<RootPath> itemPaths = p.heap().rootPaths(someItem, 10, false);
    assertThat(itemPaths.get(0).root().describe())
        .isEqualTo("static " + holderType + "." + facts.get("staticField").asText());
    assertThat(itemPaths.get(0).objects()).containsExactly(itemsRoot.object(), someItem);
    List<RootPath> threadFactPaths = p.heap().rootPaths(perThread.object(), 10, false);
    assertThat(threadFactPaths)
        .anySatisfy(
            rp -> {
              assertThat(rp.root().kind()).isEqualTo(RootKind.THREAD_STATIC_FIELD);
              assertThat(rp.root().osThreadId()).isEqualTo(tid);
              assertThat(rp.objects()).containsExactly(perThread.object());
            });

    // The stored exception, its inner one, and where each was thrown.
    Root storedRoot = only(statics, holderType, facts.get("exceptionField").asText());
    ExceptionInfo e = p.runtime().exception(storedRoot.object());
    assertThat(e.type()).isEqualTo(facts.get("exceptionType").asText());
    assertThat(e.message()).isEqualTo(facts.get("message").asText());
    assertThat(e.hresult()).isEqualTo(facts.get("hresult").asInt());
    assertThat(e.stackTrace().get(0).methodName()).isEqualTo(facts.get("throwMethod").asText());
    assertThat(e.inner()).isNotNull();
    assertThat(e.inner().type()).isEqualTo(facts.get("innerType").asText());
    assertThat(e.inner().message()).isEqualTo(facts.get("innerMessage").asText());
    assertThat(e.inner().hresult()).isEqualTo(facts.get("innerHresult").asInt());
    assertThat(e.inner().stackTrace().get(0).methodName())
        .isEqualTo(facts.get("innerThrowMethod").asText());
    assertThat(e.inner().inner()).isNull();
  }

  private static Root only(List<Root> roots, String type, String field) {
    List<Root> matching =
        roots.stream()
            .filter(r -> r.declaringType().equals(type) && r.field().name().equals(field))
            .toList();
    assertThat(matching).as("roots of %s.%s", type, field).hasSize(1);
    return matching.get(0);
  }
}
