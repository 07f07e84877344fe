package io.objectstreams.demo.store;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The store's JAX-RS application, under {@code /store/api}. */
@ApplicationPath("api")
public class StoreApplication extends Application {
}
