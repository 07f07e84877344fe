package io.objectstreams.examples.helpdesk.api;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The help desk's REST API, under {@code /help-desk/api}. */
@ApplicationPath("api")
public class HelpDeskApplication extends Application {
}
