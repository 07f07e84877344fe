package io.objectstreams.web.rest;

import io.objectstreams.StreamsCursor;
import io.objectstreams.feed.StreamsFeed;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The {@code Streams-Cursor} response header ({@link StreamsCursor}): the cursor is taken when the request arrives,
 * before the resource method reads anything, and written on the response. Every change at or below it was
 * committed before the read, so the response reflects it; a change committed later has a higher cursor and
 * reaches a subscription started from this one.
 */
@Provider
public class StreamsCursorFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final Logger LOG = Logger.getLogger(StreamsCursorFilter.class.getName());

    private static final String PROPERTY = StreamsCursorFilter.class.getName() + ".cursor";

    @Context
    ResourceInfo resource;

    @Inject
    StreamsFeed feed;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!wanted()) {
            return;
        }
        long cursor = feed.deliveredCursor();
        if (cursor < 0) {
            // This instance has not reached the database yet: the committed cursor state is as safe.
            try {
                cursor = feed.cursorState().lastCursor();
            } catch (SQLException e) {
                LOG.log(Level.FINE, "No Streams-Cursor: the cursor state could not be read", e);
                return;
            }
        }
        request.setProperty(PROPERTY, cursor);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object cursor = request.getProperty(PROPERTY);
        if (cursor != null) {
            response.getHeaders().putSingle(StreamsCursor.HEADER, cursor.toString());
        }
    }

    private boolean wanted() {
        if (feed.settings().cursorHeaderEverywhere()) {
            return true;
        }
        if (resource == null || resource.getResourceMethod() == null) {
            return false;
        }
        return resource.getResourceMethod().isAnnotationPresent(StreamsCursor.class)
                || resource.getResourceClass().isAnnotationPresent(StreamsCursor.class);
    }
}
