package io.objectstreams.capture;

import io.objectstreams.StreamsAction;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.security.enterprise.SecurityContext;
import java.security.Principal;
import java.util.UUID;

/**
 * Opens an {@link ActionContext} around the outermost {@link StreamsAction} call on a thread, so every
 * change recorded inside it carries the caller and one correlation id. Nested calls join the open action.
 */
@StreamsAction
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 100)
public class StreamsActionInterceptor {

    @Inject
    SecurityContext security;

    @AroundInvoke
    Object aroundAction(InvocationContext invocation) throws Exception {
        if (ActionContext.current().isPresent()) {
            return invocation.proceed();
        }
        ActionContext.open(new ActionContext(callerName(), UUID.randomUUID().toString()));
        try {
            return invocation.proceed();
        } finally {
            ActionContext.close();
        }
    }

    private String callerName() {
        Principal caller = security.getCallerPrincipal();
        return caller == null ? null : caller.getName();
    }
}
