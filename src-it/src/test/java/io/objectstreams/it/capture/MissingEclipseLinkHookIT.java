package io.objectstreams.it.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StoreClient.Reply;
import io.objectstreams.it.support.TestDatabase;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * The demo WAR without its {@code eclipselink.session-event-listener} line: on EclipseLink the first write of a
 * {@code @Streamed} entity fails, naming the property, and neither the order nor an outbox row is committed
 * (docs/capture.md, step 5). Hibernate ignores the property, so there is nothing to show on WildFly.
 */
class MissingEclipseLinkHookIT {

    private static final String PERSISTENCE_XML = "WEB-INF/classes/META-INF/persistence.xml";
    private static final String HOOK = "<property name=\"eclipselink.session-event-listener\""
            + " value=\"io.objectstreams.capture.EclipseLinkCapture\"/>";

    @Test
    void aStreamedWriteFailsNamingThePropertyAndCommitsNothing() throws Exception {
        assumeTrue(Deployments.server().startsWith("payara"), "EclipseLink only; Hibernate ignores the property");
        try (ServerProcess server = ServerProcess.start("missing-hook", warWithoutTheHook(), Map.of())) {
            server.awaitStarted(Duration.ofMinutes(3));
            long mark = Outbox.mark();

            Reply reply = StoreClient.as("alice", server.deployment())
                    .post("api/orders", "{\"status\":\"open\",\"total\":1,\"note\":\"without the hook\"}");

            assertThat(reply.status()).as(reply.raw()).isEqualTo(500);
            assertThat(reply.object().getString("error")).isEqualTo("capture_not_configured");
            assertThat(reply.object().getString("message")).contains("eclipselink.session-event-listener");
            assertThat(server.log()).contains("[capture_not_configured]");
            assertThat(Outbox.since(mark)).isEmpty();
            assertThat(ordersNoted("without the hook")).as("the order was rolled back").isZero();
        }
    }

    private static File warWithoutTheHook() throws Exception {
        WebArchive war = Deployments.storeWar();
        String xml;
        try (InputStream in = war.get(PERSISTENCE_XML).getAsset().openStream()) {
            xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(xml).as("the demo's persistence.xml names the hook").contains(HOOK);
        war.delete(PERSISTENCE_XML);
        war.add(new StringAsset(xml.replace(HOOK, "")), PERSISTENCE_XML);
        File file = new File("target/missing-hook/store.war");
        file.getParentFile().mkdirs();
        war.as(ZipExporter.class).exportTo(file, true);
        return file;
    }

    private static long ordersNoted(String note) throws Exception {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM store_order WHERE note = '" + note + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
