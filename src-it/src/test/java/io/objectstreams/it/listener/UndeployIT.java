package io.objectstreams.it.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Undeploying the application, while the server keeps running, stops the listener thread and closes its
 * session (see {@link ServerProcess#startUndeployed} for how each server undeploys).
 */
class UndeployIT {

    @Test
    void undeployLeavesNoListenerSessionAndNoListenerThread() throws Exception {
        try (ServerProcess server = ServerProcess.startUndeployed("undeploy", Deployments.storeFile("undeploy"),
                Duration.ofMinutes(3))) {
            String log = server.log();
            assertThat(log).contains("Object Streams listener holds the assigner role");
            assertThat(log.indexOf("Object Streams listener stopped"))
                    .as("stopped after it had connected").isGreaterThan(log.indexOf("holds the assigner role"));
            assertThat(log).doesNotContain("thread still alive");
            assertThat(server.isAlive()).as("the server itself keeps running").isTrue();

            String threads = server.threadDump();
            assertThat(threads).as("jcmd worked").contains("Full thread dump");
            assertThat(threads).doesNotContain("object-streams-listener");
            await().atMost(Duration.ofSeconds(10)).until(() -> TestDatabase.listenerSessions() == 0);
        }
    }
}
