package io.objectstreams.it.support.payara;

import org.jboss.arquillian.container.spi.ConfigurationException;
import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;

/**
 * The {@code payara-server} container has no properties in {@code arquillian.xml}: the domain it deploys into is the
 * one {@link io.objectstreams.it.support.PayaraServerDomain#shared()} starts, from the system properties
 * {@code payara.home} (the unpacked Payara Server) and {@code streams.it.driver} (the PostgreSQL driver), which the
 * process-based classes of the same execution use too.
 */
public final class PayaraServerConfiguration implements ContainerConfiguration {

    @Override
    public void validate() throws ConfigurationException {
        String home = System.getProperty("payara.home");
        if (home == null || !new java.io.File(home, "bin/asadmin").isFile()) {
            throw new ConfigurationException("payara.home must name an unpacked Payara Server (got " + home + ")");
        }
        String driver = System.getProperty("streams.it.driver");
        if (driver == null || !new java.io.File(driver).isFile()) {
            throw new ConfigurationException("streams.it.driver must name the PostgreSQL driver jar (got " + driver + ")");
        }
    }
}
