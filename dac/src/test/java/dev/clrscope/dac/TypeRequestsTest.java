package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.clrscope.dac.source.TargetMemory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The types a second walk asks the owner thread for, on two real threads: what is asked is
 * answered, by the owner alone; a failure there is the asker's; either side stopping stops the
 * other; nothing hangs.
 */
class TypeRequestsTest {
  private static final Duration LIMIT = Duration.ofSeconds(20);
  private static final long MT = 0x7f00_0001_0000L;
  private static final long NOT_A_TYPE = 0x7f00_0002_0000L;
  private static final long FAILING = 0x7f00_0003_0000L;

  /** The threads that read target memory: the owner's only. */
  private final Set<String> readers = ConcurrentHashMap.newKeySet();

  private final TargetException failure =
      new TargetException(TargetException.Problem.UNREADABLE_MEMORY, "cannot read 0x7f0000030000");

  // A descriptor of one series (8 bytes at offset 8) just below each type's method table; reading
  // FAILING's fails.
  private final RegionMemory descriptors = new RegionMemory();
  private final TargetMemory memory =
      (address, dst, offset, length) -> {
        readers.add(Thread.currentThread().getName());
        if (address >= FAILING - 4096 && address < FAILING) {
          throw failure;
        }
        return descriptors.read(address, dst, offset, length);
      };
  private final ClrReader reader = StandInReader.over(memory);
  private final TypeRequests requests = new TypeRequests(reader);

  /** Types whose descriptors are read from memory when first asked for, as a real reader's are. */
  private final List<ClrType> types = new ArrayList<>();

  TypeRequestsTest() {
    for (int i = 0; i < 8; i++) {
      descriptors.add(MT + 0x100L * i - 24, GcDescs.series(8 - 24, 8));
      types.add(StandInReader.unread(reader, MT + 0x100L * i, true));
    }
    StandInReader.unread(reader, FAILING, true);
    StandInReader.notAType(reader, NOT_A_TYPE);
  }

  /** Runs {@code work} on a thread of its own, named {@code name}. */
  private static <T> CompletableFuture<T> onThread(String name, Callable<T> work) {
    CompletableFuture<T> f = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                f.complete(work.call());
              } catch (Throwable e) {
                f.completeExceptionally(e);
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return f;
  }

  /** The owner once its own walk is done: answering until the second walk ends, on its thread. */
  private CompletableFuture<Void> ownerUntilEnded(AtomicReference<Thread> thread) {
    return onThread(
        "owner",
        () -> {
          thread.set(Thread.currentThread());
          requests.serveUntilEnded();
          return null;
        });
  }

  private static Throwable failureOf(CompletableFuture<?> f) throws InterruptedException {
    try {
      f.get();
      throw new AssertionError("completed without failing");
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  private static void waitUntil(BooleanSupplier condition) {
    while (!condition.getAsBoolean()) {
      Thread.onSpinWait();
    }
  }

  /** The second walk: asks for each type in turn, {@code rounds} times; then says it has ended. */
  private List<ClrType> ask(int rounds) {
    List<ClrType> answers = new ArrayList<>();
    try {
      for (int i = 0; i < rounds; i++) {
        requests.checkOpen();
        answers.add(requests.typeOrNull(MT + 0x100L * (i % types.size())));
        answers.add(requests.typeOrNull(NOT_A_TYPE));
      }
      return answers;
    } finally {
      requests.ended();
    }
  }

  private void assertAnswered(List<ClrType> answers, int rounds) {
    assertThat(answers).hasSize(2 * rounds);
    for (int i = 0; i < rounds; i++) {
      ClrType t = answers.get(2 * i);
      assertThat(t).isSameAs(types.get(i % types.size()));
      // Handed over with its descriptor read, by the owner.
      assertThat(t.gcDescLoaded).isTrue();
      assertThat(GcDescs.slots(t.gcDesc, 24)).containsExactly(8L);
      assertThat(answers.get(2 * i + 1)).isNull();
    }
    assertThat(readers).containsOnly("owner");
  }

  @Test
  void theOwnerAnswersBetweenItsObjects() {
    int rounds = 20_000;
    List<ClrType> answers =
        assertTimeoutPreemptively(
            LIMIT,
            () -> {
              CompletableFuture<List<ClrType>> second = onThread("second", () -> ask(rounds));
              onThread(
                      "owner",
                      () -> {
                        // The owner's walk: a check for a request at every object.
                        while (!second.isDone()) {
                          requests.serve();
                        }
                        return null;
                      })
                  .get();
              return second.get();
            });
    assertAnswered(answers, rounds);
  }

  @Test
  void theOwnerAnswersUntilTheSecondWalkEnds() {
    int rounds = 20_000;
    List<ClrType> answers =
        assertTimeoutPreemptively(
            LIMIT,
            () -> {
              CompletableFuture<List<ClrType>> second = onThread("second", () -> ask(rounds));
              ownerUntilEnded(new AtomicReference<>()).get();
              return second.get();
            });
    assertAnswered(answers, rounds);
  }

  @Test
  void serveUntilEndedReturnsOnceEndedIsSaid() {
    assertTimeoutPreemptively(
        LIMIT,
        () -> {
          AtomicReference<Thread> thread = new AtomicReference<>();
          CompletableFuture<Void> owner = ownerUntilEnded(thread);
          // Nothing asked, nothing ended: it waits.
          waitUntil(() -> thread.get() != null);
          waitUntil(() -> thread.get().getState() == Thread.State.TIMED_WAITING);
          assertThat(owner).isNotDone();
          requests.ended();
          owner.get();
          // Said before: it returns at once.
          requests.serveUntilEnded();
        });
  }

  @Test
  void aFailureOnTheOwnersSideIsThrownOnTheAskingSide() {
    assertTimeoutPreemptively(
        LIMIT,
        () -> {
          CompletableFuture<ClrType> second =
              onThread(
                  "second",
                  () -> {
                    try {
                      assertThat(requests.typeOrNull(MT)).isSameAs(types.get(0));
                      return requests.typeOrNull(FAILING);
                    } finally {
                      requests.ended();
                    }
                  });
          // The owner itself does not fail: the failure is the asker's to throw.
          ownerUntilEnded(new AtomicReference<>()).get();
          assertThat(failureOf(second)).isSameAs(failure);
        });
  }

  @Test
  void closingStopsTheOwnersServe() {
    requests.serve();
    requests.close();
    assertThatThrownBy(requests::serve).isInstanceOf(TypeRequests.OtherHalfStopped.class);
  }

  @Test
  void closingStopsTheSecondWalksCheck() {
    requests.checkOpen();
    requests.close();
    assertThatThrownBy(requests::checkOpen).isInstanceOf(TypeRequests.OtherHalfStopped.class);
    // And a request asked after it, at once.
    assertTimeoutPreemptively(
        LIMIT,
        () -> {
          assertThatThrownBy(() -> requests.typeOrNull(MT))
              .isInstanceOf(TypeRequests.OtherHalfStopped.class);
        });
  }

  @Test
  void closingWakesARequestThatWaits() {
    assertTimeoutPreemptively(
        LIMIT,
        () -> {
          AtomicReference<Thread> asker = new AtomicReference<>();
          CompletableFuture<ClrType> second =
              onThread(
                  "second",
                  () -> {
                    asker.set(Thread.currentThread());
                    return requests.typeOrNull(MT);
                  });
          // Nobody serves: the request waits (past its spinning, asleep on the lock).
          waitUntil(() -> asker.get() != null);
          waitUntil(() -> asker.get().getState() == Thread.State.TIMED_WAITING);
          assertThat(second).isNotDone();

          requests.close();

          assertThat(failureOf(second)).isInstanceOf(TypeRequests.OtherHalfStopped.class);
        });
  }

  @Test
  void anInterruptedOwnerStopsBothHalves() {
    assertTimeoutPreemptively(
        LIMIT,
        () -> {
          AtomicReference<Thread> owner = new AtomicReference<>();
          CompletableFuture<Void> serving = ownerUntilEnded(owner);
          waitUntil(() -> owner.get() != null);

          owner.get().interrupt();

          Throwable e = failureOf(serving);
          assertThat(e).isInstanceOf(TargetException.class);
          assertThat(((TargetException) e).problem())
              .isEqualTo(TargetException.Problem.INTERRUPTED);
          assertThatThrownBy(requests::checkOpen).isInstanceOf(TypeRequests.OtherHalfStopped.class);
        });
  }

  @Test
  void theSecondWalkFailingStopsTheOwnersWalk() {
    // As the walk in two does it: the second half fails, closes the requests and ends; the owner's
    // next check between its objects stops it.
    assertTimeoutPreemptively(
        LIMIT,
        () -> {
          CompletableFuture<Void> second =
              onThread(
                  "second",
                  () -> {
                    try {
                      requests.typeOrNull(MT);
                      throw new IllegalStateException("the second walk failed");
                    } catch (RuntimeException e) {
                      requests.close();
                      throw e;
                    } finally {
                      requests.ended();
                    }
                  });
          Throwable stopped =
              failureOf(
                  onThread(
                      "owner",
                      () -> {
                        while (true) {
                          requests.serve();
                        }
                      }));
          assertThat(stopped).isInstanceOf(TypeRequests.OtherHalfStopped.class);
          assertThat(failureOf(second)).hasMessage("the second walk failed");
        });
  }
}
