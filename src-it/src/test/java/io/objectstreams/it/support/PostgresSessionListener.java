package io.objectstreams.it.support;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Starts PostgreSQL once per test JVM, before Arquillian deploys anything (a {@code @BeforeAll} would be
 * too late: the deployment's startup beans already need the database), and stops it at the end.
 */
public class PostgresSessionListener implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        TestDatabase.start();
        MicroResources.writeForArquillian();
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        TestDatabase.stop();
    }
}
