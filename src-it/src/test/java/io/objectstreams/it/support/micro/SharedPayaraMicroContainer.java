package io.objectstreams.it.support.micro;

import fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.container.LifecycleException;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.asset.ArchiveAsset;

/**
 * Payara Micro's Arquillian adapter, keeping one server for consecutive test classes that deploy the same archive.
 *
 * <p>Payara Micro deploys only at boot, so the adapter starts a server per test class: about 12 s each, for classes
 * that mostly deploy the very same store. This one leaves the server running when a class ends and, when the next
 * class deploys an archive with the same content, hands that class the running server. A different archive, the end
 * of the run, or a class that is not an Arquillian one ({@link SharedServer#release()}) stops it: a second instance
 * of the application on the test database would take part in the listener's roles.
 *
 * <p>Unlike the one WildFly and the one Payara Server domain of their executions, which deploy the application again
 * for each class, this keeps the application too: what a class leaves in it is what the next class finds
 * (docs/testing.md lists what that can do).
 */
public class SharedPayaraMicroContainer extends PayaraMicroDeployableContainer {

    private static final Logger LOG = Logger.getLogger(SharedPayaraMicroContainer.class.getName());

    private Archive<?> deployed;
    private String deployedDigest;
    private ProtocolMetaData deployedMetaData;
    private int reused;

    @Override
    public synchronized ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        String digest = digest(archive);
        if (deployed != null && digest.equals(deployedDigest)) {
            reused++;
            LOG.info(() -> "Object Streams tests: the running Payara Micro already serves " + archive.getName()
                    + " with this content; reused (" + reused + " time(s) so far)");
            return deployedMetaData;
        }
        stopDeployed();
        ProtocolMetaData metaData = super.deploy(archive);
        deployed = archive;
        deployedDigest = digest;
        deployedMetaData = metaData;
        SharedServer.running(this::stopForRelease);
        return metaData;
    }

    /** Leaves the server running for the next class; {@link #deploy} or {@link #stop} stop it. */
    @Override
    public void undeploy(Archive<?> archive) {
    }

    @Override
    public synchronized void stop() throws LifecycleException {
        try {
            stopDeployed();
        } catch (DeploymentException e) {
            throw new LifecycleException("Could not stop the shared Payara Micro", e);
        }
        super.stop();
    }

    private synchronized void stopForRelease() {
        try {
            stopDeployed();
        } catch (DeploymentException e) {
            throw new IllegalStateException("Could not stop the shared Payara Micro", e);
        }
    }

    private void stopDeployed() throws DeploymentException {
        if (deployed != null) {
            Archive<?> archive = deployed;
            deployed = null;
            deployedDigest = null;
            deployedMetaData = null;
            SharedServer.running(null);
            super.undeploy(archive);
        }
    }

    /** The archive's content: every path and, for files, their bytes, in path order. */
    static String digest(Archive<?> archive) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            Map<String, Node> content = new TreeMap<>();
            for (Map.Entry<ArchivePath, Node> entry : archive.getContent().entrySet()) {
                content.put(entry.getKey().get(), entry.getValue());
            }
            sha.update(archive.getName().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            for (Map.Entry<String, Node> entry : content.entrySet()) {
                sha.update(entry.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                sha.update((byte) 0);
                if (entry.getValue().getAsset() instanceof ArchiveAsset nested) {
                    sha.update(digest(nested.getArchive()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                } else if (entry.getValue().getAsset() != null) {
                    try (InputStream in = entry.getValue().getAsset().openStream()) {
                        if (in != null) {
                            sha.update(in.readAllBytes());
                        }
                    }
                }
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
