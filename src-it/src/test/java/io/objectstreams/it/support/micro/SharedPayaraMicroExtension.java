package io.objectstreams.it.support.micro;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Puts {@link SharedPayaraMicroContainer} in the place of Payara Micro's own adapter, in the executions that have that
 * adapter on their class path; the others never load either.
 */
public final class SharedPayaraMicroExtension implements LoadableExtension {

    private static final String ADAPTER = "fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer";

    @Override
    public void register(ExtensionBuilder builder) {
        if (hasAdapter()) {
            Registration.override(builder);
        }
    }

    private static boolean hasAdapter() {
        try {
            Class.forName(ADAPTER, false, SharedPayaraMicroExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }

    /** Apart, so that the adapter's classes are resolved only where they are present. */
    private static final class Registration {
        static void override(ExtensionBuilder builder) {
            builder.override(DeployableContainer.class,
                    fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer.class,
                    SharedPayaraMicroContainer.class);
        }
    }
}
