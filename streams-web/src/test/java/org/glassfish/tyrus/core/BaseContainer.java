package org.glassfish.tyrus.core;

import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Extension;
import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The shape of Tyrus 2.1.5's container that {@code TyrusIdleTimer} relies on (read from the bytecode Payara 6 ships):
 * a private final {@code managedScheduledExecutorService} field, from which every session takes its scheduler when
 * it is built. Nothing else is used.
 */
public class BaseContainer implements WebSocketContainer {

    private final ScheduledExecutorService managedScheduledExecutorService;

    public BaseContainer(ScheduledExecutorService managed) {
        this.managedScheduledExecutorService = managed;
    }

    public ScheduledExecutorService getScheduledExecutorService() {
        return managedScheduledExecutorService;
    }

    @Override
    public long getDefaultMaxSessionIdleTimeout() {
        return 0;
    }

    @Override
    public long getDefaultAsyncSendTimeout() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void setAsyncSendTimeout(long timeoutmillis) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Session connectToServer(Object annotatedEndpointInstance, URI path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Session connectToServer(Class<?> annotatedEndpointClass, URI path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Session connectToServer(Endpoint endpointInstance, ClientEndpointConfig cec, URI path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Session connectToServer(Class<? extends Endpoint> endpointClass, ClientEndpointConfig cec, URI path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void setDefaultMaxSessionIdleTimeout(long timeout) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int getDefaultMaxBinaryMessageBufferSize() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void setDefaultMaxBinaryMessageBufferSize(int max) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int getDefaultMaxTextMessageBufferSize() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void setDefaultMaxTextMessageBufferSize(int max) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Set<Extension> getInstalledExtensions() {
        throw new UnsupportedOperationException();
    }
}
