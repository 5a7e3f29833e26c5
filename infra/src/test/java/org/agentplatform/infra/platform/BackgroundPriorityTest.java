package org.agentplatform.infra.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Platform;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Background threads take a nice value that many above the service's (read back from the kernel); others keep theirs. */
class BackgroundPriorityTest {

    @Test
    void backgroundThreadsRunNicerThanTheThreadThatMadeThem() throws InterruptedException {
        assumeTrue(Platform.isLinux(), "per-thread nice values are Linux's");
        int normal = niceOfThisThread();
        BackgroundPriority priority = new BackgroundPriority(10);

        assertThat(niceIn(priority.threads("background-probe"))).isEqualTo(Math.min(19, normal + 10));
        AtomicInteger single = new AtomicInteger(Integer.MIN_VALUE);
        Thread thread = priority.thread("background-single-probe", () -> single.set(niceOfThisThread()));
        thread.start();
        thread.join();
        assertThat(single.get()).isEqualTo(Math.min(19, normal + 10));
        assertThat(niceOfThisThread()).as("the maker keeps its priority").isEqualTo(normal);
    }

    @Test
    void commandThreadsRunBetweenTheRequestThreadsAndTheBackground() throws InterruptedException {
        assumeTrue(Platform.isLinux(), "per-thread nice values are Linux's");
        int normal = niceOfThisThread();

        assertThat(niceIn(new BackgroundPriority(10).commandThreads("command-probe")))
                .isEqualTo(Math.min(19, normal + BackgroundPriority.COMMAND_NICENESS));
        assertThat(niceIn(new BackgroundPriority(1).commandThreads("command-probe")))
                .as("never below the background").isEqualTo(Math.min(19, normal + 1));
    }

    @Test
    void aNicenessOfZeroLeavesThreadsAsTheyAre() throws InterruptedException {
        assumeTrue(Platform.isLinux(), "per-thread nice values are Linux's");
        assertThat(niceIn(new BackgroundPriority(0).threads("plain-probe"))).isEqualTo(niceOfThisThread());
        assertThat(niceIn(new BackgroundPriority(0).commandThreads("plain-probe"))).isEqualTo(niceOfThisThread());
    }

    private static int niceIn(java.util.concurrent.ThreadFactory threads) throws InterruptedException {
        AtomicInteger nice = new AtomicInteger(Integer.MIN_VALUE);
        Thread thread = threads.newThread(() -> nice.set(niceOfThisThread()));
        thread.start();
        thread.join();
        return nice.get();
    }

    /** Field 19 of /proc/thread-self/stat, after the command name in parentheses. */
    private static int niceOfThisThread() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
