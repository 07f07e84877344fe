package io.objectstreams.it.support.micro;

import java.util.Optional;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * The server {@link SharedPayaraMicroContainer} keeps between test classes, and the listener that stops it before a
 * class that does not run on it. Free of Payara's adapter, which only the Payara Micro executions have on their class
 * path: in the others nothing is ever shared and this does nothing.
 *
 * <p>A class that is not an Arquillian one starts servers of its own (through {@code ServerProcess}) or works on the
 * database alone, and a running instance of the application on that database would take part in what it tests:
 * the listener's roles, migrations, the outbox. So the shared server stops first. {@link SharedServerOrder} runs the
 * Arquillian classes first, so this happens once per run.
 */
public final class SharedServer implements TestExecutionListener {

    private static volatile Runnable stop;

    /** Called by the container: how to stop the server it keeps, or {@code null} once none runs. */
    static void running(Runnable stopIt) {
        stop = stopIt;
    }

    /** Stops the shared server, if one runs. */
    public static void release() {
        Runnable stopIt = stop;
        if (stopIt != null) {
            stopIt.run();
        }
    }

    @Override
    public void executionStarted(TestIdentifier identifier) {
        testClass(identifier).filter(type -> !isArquillian(type)).ifPresent(type -> release());
    }

    static boolean isArquillian(Class<?> type) {
        for (ExtendWith extensions : type.getAnnotationsByType(ExtendWith.class)) {
            for (Class<?> extension : extensions.value()) {
                if (extension.getName().equals("org.jboss.arquillian.junit5.ArquillianExtension")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Optional<Class<?>> testClass(TestIdentifier identifier) {
        Optional<TestSource> source = identifier.getSource();
        if (identifier.isContainer() && source.isPresent() && source.get() instanceof ClassSource classSource) {
            try {
                return Optional.of(classSource.getJavaClass());
            } catch (RuntimeException notLoadable) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
