package org.glassfish.tyrus.core;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Extension;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;
import java.net.URI;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The shape of Tyrus 2.1.5's session that {@code TyrusIdleTimer} relies on (read from the bytecode Payara 6 ships):
 * a private {@code service} field with the scheduler, taken from its container when it is built, and
 * {@link #restartIdleTimeoutExecutor} scheduling an {@code IdleTimeoutCommand} with the idle timeout as its delay, in
 * the constructor and on every send. Nothing else is used.
 */
public class TyrusSession implements Session {

    private final BaseContainer container;
    private ScheduledExecutorService service;
    private long maxIdleTimeout;

    /** A session of no container, on {@code service}. */
    public TyrusSession(ScheduledExecutorService service) {
        this.container = null;
        this.service = service;
    }

    /** A session as Tyrus builds one: with its container's scheduler, and the container's idle timeout set. */
    public TyrusSession(BaseContainer container) {
        this.container = container;
        this.service = container.getScheduledExecutorService();
        setMaxIdleTimeout(container.getDefaultMaxSessionIdleTimeout());
        restartIdleTimeoutExecutor();
    }

    /** What Tyrus runs on every send and every pong. */
    public void restartIdleTimeoutExecutor() {
        service.schedule(new IdleTimeoutCommand(), maxIdleTimeout, TimeUnit.MILLISECONDS);
    }

    public ScheduledExecutorService scheduler() {
        return service;
    }

    private class IdleTimeoutCommand implements Runnable {
        @Override
        public void run() {
        }
    }

    @Override
    public long getMaxIdleTimeout() {
        return maxIdleTimeout;
    }

    @Override
    public void setMaxIdleTimeout(long milliseconds) {
        maxIdleTimeout = milliseconds;
    }

    @Override
    public WebSocketContainer getContainer() {
        return container;
    }

    @Override
    public void addMessageHandler(MessageHandler handler) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> void addMessageHandler(Class<T> clazz, MessageHandler.Whole<T> handler) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> void addMessageHandler(Class<T> clazz, MessageHandler.Partial<T> handler) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Set<MessageHandler> getMessageHandlers() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void removeMessageHandler(MessageHandler handler) {
        throw new UnsupportedOperationException();
    }

    @Override
    public String getProtocolVersion() {
        throw new UnsupportedOperationException();
    }

    @Override
    public String getNegotiatedSubprotocol() {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<Extension> getNegotiatedExtensions() {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isSecure() {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void setMaxBinaryMessageBufferSize(int length) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int getMaxBinaryMessageBufferSize() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void setMaxTextMessageBufferSize(int length) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int getMaxTextMessageBufferSize() {
        throw new UnsupportedOperationException();
    }

    @Override
    public RemoteEndpoint.Async getAsyncRemote() {
        throw new UnsupportedOperationException();
    }

    @Override
    public RemoteEndpoint.Basic getBasicRemote() {
        throw new UnsupportedOperationException();
    }

    @Override
    public String getId() {
        return "fake";
    }

    @Override
    public void close() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close(CloseReason closeReason) {
        throw new UnsupportedOperationException();
    }

    @Override
    public URI getRequestURI() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, List<String>> getRequestParameterMap() {
        throw new UnsupportedOperationException();
    }

    @Override
    public String getQueryString() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, String> getPathParameters() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, Object> getUserProperties() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Principal getUserPrincipal() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Set<Session> getOpenSessions() {
        throw new UnsupportedOperationException();
    }
}
