package io.objectstreams.it.support;

import java.time.Duration;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.event.container.AfterDeploy;
import org.jboss.arquillian.core.api.Instance;
import org.jboss.arquillian.core.api.annotation.Inject;
import org.jboss.arquillian.core.api.annotation.Observes;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Holds every test class back until the store it deployed answers a request of its own: {@code GET api/it/jvm/pid}
 * with 200 and a JSON body, within 60 s. A deployment reported done can still answer a first request with something
 * else (seen on Payara Micro, once in a few hundred deployments: a 404, or a body that is not JSON); without this
 * wait every test of the class would fail on it, and with it a deployment that never answers fails the class with
 * what it did answer.
 */
public final class DeploymentReadiness implements LoadableExtension {

    private static final String PROBE = "api/it/jvm/pid";
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Override
    public void register(ExtensionBuilder builder) {
        builder.observer(Waiter.class);
    }

    /** The observer: runs in the test JVM after each deployment. */
    public static final class Waiter {

        @Inject
        private Instance<ProtocolMetaData> metaData;

        public void afterDeploy(@Observes AfterDeploy event) throws InterruptedException, java.net.MalformedURLException {
            if (!servesTestResources(event.getDeployment().getArchive())) {
                return;
            }
            ProtocolMetaData protocol = metaData.get();
            HTTPContext http = protocol == null ? null : protocol.getContexts(HTTPContext.class).stream().findFirst().orElse(null);
            if (http == null) {
                return;
            }
            awaitAnswer(java.net.URI.create("http://" + http.getHost() + ":" + http.getPort() + "/store/").toURL());
        }
    }

    /** Whether the archive is the store with the tests' server-side resources (its context root is {@code /store}). */
    private static boolean servesTestResources(org.jboss.shrinkwrap.api.Archive<?> archive) {
        String resource = "/WEB-INF/classes/" + io.objectstreams.it.support.server.JvmResource.class.getName().replace('.', '/')
                + ".class";
        if (archive instanceof org.jboss.shrinkwrap.api.spec.EnterpriseArchive ear) {
            return ear.contains("store.war")
                    && ear.getAsType(org.jboss.shrinkwrap.api.spec.WebArchive.class, "store.war").contains(resource);
        }
        return archive.contains(resource);
    }

    static void awaitAnswer(java.net.URL store) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String last = "nothing";
        int attempts = 0;
        while (System.nanoTime() < deadline) {
            attempts++;
            try {
                StoreClient.Reply reply = StoreClient.as("alice", store).get(PROBE);
                if (reply.status() == 200 && reply.body() instanceof jakarta.json.JsonObject body && body.containsKey("pid")) {
                    if (attempts > 1) {
                        System.err.println("[readiness] " + store + PROBE + " answered after " + attempts
                                + " attempts; before: " + last);
                    }
                    return;
                }
                last = reply.status() + " " + reply.headers().map() + " " + abbreviate(reply.raw());
            } catch (java.io.UncheckedIOException e) {
                last = e.getCause().toString();
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("The deployment did not answer " + store + PROBE + " within " + PATIENCE.toSeconds()
                + " s after it was reported deployed (" + attempts + " attempts); the last answer was: " + last
                + "; busiest processes: " + Jvm.busiestProcesses());
    }

    private static String abbreviate(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "...";
    }
}
