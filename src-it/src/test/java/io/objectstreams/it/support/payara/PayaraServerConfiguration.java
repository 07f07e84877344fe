package io.objectstreams.it.support.payara;

import org.jboss.arquillian.container.spi.ConfigurationException;
import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;

/**
 * The {@code payara-server} container's properties in {@code arquillian.xml}: where Payara Server is unpacked, the
 * PostgreSQL driver the domain gets, and how long one {@code asadmin} command may take.
 */
public final class PayaraServerConfiguration implements ContainerConfiguration {

    private String payaraHome = System.getProperty("payara.home");
    private String driver = System.getProperty("streams.it.driver");
    private String jvmOptions = "";

    @Override
    public void validate() throws ConfigurationException {
        if (payaraHome == null || !new java.io.File(payaraHome, "bin/asadmin").isFile()) {
            throw new ConfigurationException("payaraHome must name an unpacked Payara Server (got " + payaraHome + ")");
        }
        if (driver == null || !new java.io.File(driver).isFile()) {
            throw new ConfigurationException("driver must name the PostgreSQL driver jar (got " + driver + ")");
        }
    }

    public String getPayaraHome() {
        return payaraHome;
    }

    public void setPayaraHome(String payaraHome) {
        this.payaraHome = payaraHome;
    }

    public String getDriver() {
        return driver;
    }

    public void setDriver(String driver) {
        this.driver = driver;
    }

    public String getJvmOptions() {
        return jvmOptions;
    }

    /** Options the domain's JVM gets in place of its default {@code -Xmx512m}, separated by blanks. */
    public void setJvmOptions(String jvmOptions) {
        this.jvmOptions = jvmOptions;
    }
}
