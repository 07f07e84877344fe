package io.objectstreams.examples.helpdesk;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/** Starts PostgreSQL once per test JVM, before Arquillian deploys the help desk (whose startup needs it). */
public class DatabaseSession implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        HelpDeskDatabase.start();
        HelpDeskDatabase.writePostBootCommands();
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        HelpDeskDatabase.stop();
    }
}
