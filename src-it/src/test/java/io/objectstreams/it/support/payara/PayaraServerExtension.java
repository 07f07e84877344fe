package io.objectstreams.it.support.payara;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Registers {@link PayaraServerContainer}, only in the Failsafe execution that runs the suite on Payara Server
 * ({@code streams.it.server=payara-server}): the other executions keep exactly one adapter of their own.
 */
public final class PayaraServerExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        if ("payara-server".equals(System.getProperty("streams.it.server"))) {
            builder.service(DeployableContainer.class, PayaraServerContainer.class);
        }
    }
}
