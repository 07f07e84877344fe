package io.objectstreams.it.support.payara;

import io.objectstreams.it.support.PayaraServerDomain;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.container.LifecycleException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A small Arquillian adapter for Payara Server 6, which has no Jakarta EE 10 adapter on the Maven mirror here: one
 * domain for the whole test run ({@link PayaraServerDomain#shared()}, which the process-based classes of the
 * execution share), started when Arquillian starts the container unless it runs already, and deleted when Arquillian
 * stops it; each deployment is exported to a file and handed to {@code asadmin deploy}, and
 * {@code asadmin undeploy} removes it. Only client-side tests ({@code @RunAsClient}) are supported: the protocol is
 * Arquillian's local one, and the metadata names the HTTP listener and the web module's context root, so
 * {@code @ArquillianResource URL} is the store's base URL.
 */
public final class PayaraServerContainer implements DeployableContainer<PayaraServerConfiguration> {

    private static final Pattern CONTEXT_ROOT = Pattern.compile(
            "<web-uri>\\s*([^<]+?)\\s*</web-uri>\\s*<context-root>\\s*([^<]*?)\\s*</context-root>");

    private PayaraServerDomain domain;

    @Override
    public Class<PayaraServerConfiguration> getConfigurationClass() {
        return PayaraServerConfiguration.class;
    }

    @Override
    public void start() throws LifecycleException {
        try {
            domain = PayaraServerDomain.shared();
        } catch (IOException | RuntimeException e) {
            throw new LifecycleException("Could not start the Payara Server domain", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LifecycleException("Interrupted while starting the Payara Server domain", e);
        }
    }

    @Override
    public void stop() throws LifecycleException {
        if (domain == null) {
            return;
        }
        try {
            PayaraServerDomain.stopShared();
        } catch (IOException e) {
            throw new LifecycleException("Could not stop the Payara Server domain", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LifecycleException("Interrupted while stopping the Payara Server domain", e);
        } finally {
            domain = null;
        }
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return new ProtocolDescription("Local");
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        File file = new File("target/payara-server-deployments/" + archive.getName());
        file.getParentFile().mkdirs();
        archive.as(ZipExporter.class).exportTo(file, true);
        try {
            domain.deploy(file, applicationName(archive));
        } catch (IOException | RuntimeException e) {
            throw new DeploymentException("asadmin deploy " + file + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeploymentException("Interrupted while deploying " + file, e);
        }
        HTTPContext http = new HTTPContext("localhost", domain.httpPort());
        http.add(new Servlet("default", contextRoot(archive)));
        return new ProtocolMetaData().addContext(http);
    }

    @Override
    public void undeploy(Archive<?> archive) throws DeploymentException {
        try {
            domain.undeploy(applicationName(archive));
        } catch (IOException | RuntimeException e) {
            throw new DeploymentException("asadmin undeploy " + applicationName(archive) + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeploymentException("Interrupted while undeploying " + archive.getName(), e);
        }
    }

    /** The archive's name without its extension, as {@code asadmin deploy} would name it. */
    static String applicationName(Archive<?> archive) {
        String name = archive.getName();
        int dot = name.lastIndexOf('.');
        return (dot > 0 ? name.substring(0, dot) : name).replaceAll("[^A-Za-z0-9_-]", "-");
    }

    /**
     * The context root of the web module: a WAR's own name, or the first web module an EAR's
     * {@code application.xml} declares (with its {@code context-root}).
     */
    static String contextRoot(Archive<?> archive) {
        if (archive instanceof EnterpriseArchive ear) {
            ArchivePath descriptor = org.jboss.shrinkwrap.api.ArchivePaths.create("META-INF/application.xml");
            if (ear.contains(descriptor)) {
                try (InputStream in = ear.get(descriptor).getAsset().openStream()) {
                    Matcher m = CONTEXT_ROOT.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    if (m.find()) {
                        return m.group(2).startsWith("/") ? m.group(2) : "/" + m.group(2);
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return ear.getContent(path -> path.get().endsWith(".war")).keySet().stream()
                    .map(path -> "/" + applicationName(ear.getAsType(WebArchive.class, path)))
                    .findFirst().orElse("/");
        }
        return "/" + applicationName(archive);
    }
}
