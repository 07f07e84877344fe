package io.objectstreams.it.support.micro;

import java.util.Comparator;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * Runs the Arquillian test classes before the others, keeping the order among each: consecutive classes that deploy
 * the same archive then share one Payara Micro ({@link SharedPayaraMicroContainer}), which is stopped once, before
 * the first class that starts servers of its own ({@link SharedServer}). Set for the Payara Micro executions with
 * {@code junit.jupiter.testclass.order.default} (src-it/pom.xml).
 */
public final class SharedServerOrder implements ClassOrderer {

    @Override
    public void orderClasses(ClassOrdererContext context) {
        context.getClassDescriptors().sort(
                Comparator.comparing(descriptor -> SharedServer.isArquillian(descriptor.getTestClass()) ? 0 : 1));
    }
}
