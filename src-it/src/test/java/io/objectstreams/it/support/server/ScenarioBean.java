package io.objectstreams.it.support.server;

import io.objectstreams.SourceEvent;
import io.objectstreams.StreamsAction;
import io.objectstreams.StreamsPublisher;
import io.objectstreams.demo.store.CustomerOrder;
import io.objectstreams.demo.store.OrderLine;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Transactions the capture tests need that the store's REST API does not offer: several changes to one
 * object in one transaction, failures after flush, writes flushed only at commit, many rows at once.
 * Each method is one container-managed transaction.
 */
@Stateless
@StreamsAction
public class ScenarioBean {

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Inject
    StreamsPublisher publisher;

    @Inject
    @ConfigProperty(name = "streams.datasource")
    String dataSourceName;

    public long createThenFailAfterFlush() {
        CustomerOrder order = newOrder("draft");
        em.persist(order);
        em.flush();
        throw new ScenarioFailure("failing after flush of order " + order.getId());
    }

    public long createThenUpdate() {
        CustomerOrder order = newOrder("draft");
        em.persist(order);
        em.flush();
        order.setStatus("open");
        return order.getId();
    }

    public void updateTwice(long id) {
        CustomerOrder order = em.find(CustomerOrder.class, id);
        order.setStatus("paid");
        em.flush();
        order.setNote("second change");
    }

    public void updateThenDelete(long id) {
        CustomerOrder order = em.find(CustomerOrder.class, id);
        order.setTotal(order.getTotal().add(BigDecimal.ONE));
        em.flush();
        em.remove(order);
    }

    public void createThenDelete() {
        CustomerOrder order = newOrder("draft");
        em.persist(order);
        em.flush();
        em.remove(order);
    }

    /** No explicit flush: the change reaches the database only when the transaction commits. */
    public void updateFlushedAtCommit(long id) {
        em.find(CustomerOrder.class, id).setNote("flushed at commit");
    }

    /** Setting an attribute to the value it already has is no change. */
    public void rewriteSameValues(long id) {
        CustomerOrder order = em.find(CustomerOrder.class, id);
        order.setStatus(order.getStatus());
        order.setTotal(new BigDecimal(order.getTotal().toPlainString() + "0"));
    }

    public List<Long> createMany(int count) {
        List<CustomerOrder> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            CustomerOrder order = newOrder("open");
            em.persist(order);
            orders.add(order);
        }
        em.flush();
        return orders.stream().map(CustomerOrder::getId).toList();
    }

    public void updateMany(List<Long> ids) {
        for (Long id : ids) {
            em.find(CustomerOrder.class, id).setNote("bulk " + id);
        }
    }

    public void addLine(long orderId) {
        em.find(CustomerOrder.class, orderId).addLine(new OrderLine("extra", 1, BigDecimal.TEN));
    }

    public void removeFirstLine(long orderId) {
        em.find(CustomerOrder.class, orderId).getLines().remove(0);
    }

    /** The helper most JPA guides teach: the part leaves the collection, its parent is nulled, orphan removal deletes it. */
    public void removePartWithHelper(long twinId) {
        ItTwin twin = em.find(ItTwin.class, twinId);
        twin.removePart(twin.getParts().get(0));
    }

    /** Two twins and a part of the first: "twin,otherTwin,part". */
    public String createTwinsWithPart() {
        ItTwin twin = new ItTwin();
        twin.setName("holder");
        ItTwin other = new ItTwin();
        other.setName("other");
        em.persist(twin);
        em.persist(other);
        ItTwinPart part = new ItTwinPart();
        part.setLabel("part");
        twin.addPart(part);
        em.persist(part);
        em.flush();
        return twin.getId() + "," + other.getId() + "," + part.getId();
    }

    /** An optional part detached from its subject: the subject it left is the one that changed. */
    public void detachPart(long partId) {
        em.find(ItTwinPart.class, partId).setTwin(null);
    }

    /** Moved to another subject and removed in one flush: both subjects changed. */
    public void movePartThenRemove(long partId, long toTwin) {
        ItTwinPart part = em.find(ItTwinPart.class, partId);
        part.setTwin(em.find(ItTwin.class, toTwin));
        em.remove(part);
    }

    /**
     * The pk of a deleted order comes back, as a natural or application-assigned key does: a row written in SQL with
     * that id, reported with the publisher.
     */
    public void recreateOrder(long id, String owner) {
        // Through the entity manager: on Payara the publisher's row goes through EclipseLink's connection.
        em.createNativeQuery("INSERT INTO store_order (id, owner, status, total) VALUES (?1, ?2, 'open', 1)")
                .setParameter(1, id).setParameter(2, owner).executeUpdate();
        publisher.publish(SourceEvent.created("store.CustomerOrder", id));
    }

    public long writeNonStreamed() {
        ItNote note = new ItNote();
        note.setText("not streamed");
        em.persist(note);
        em.flush();
        return note.getId();
    }

    /** One one-row update transaction: the order's note, through the streamed entity or the plain mapping of its table. */
    public void touchOrder(long id, boolean streamed) {
        String note = "touched " + System.nanoTime();
        if (streamed) {
            em.find(CustomerOrder.class, id).setNote(note);
        } else {
            em.find(ItPlainOrder.class, id).setNote(note);
        }
    }

    /** Changes a note and reports it by hand: notes are not @Streamed, so only the publisher can. */
    public void publishNoteChange(long id) {
        em.find(ItNote.class, id).setText("changed");
        publisher.publish(SourceEvent.updated("ItNote", id, "text"));
    }

    /** Changes a note with a native query through the persistence context, then publishes the change. */
    /** An order's note changed in SQL and published under a pk spelled as the caller says ("007", "+7", ...). */
    public void publishOrderAs(long id, String pk) {
        em.createNativeQuery("UPDATE store_order SET note = 'published' WHERE id = " + id).executeUpdate();
        publisher.publish(SourceEvent.updated("store.CustomerOrder", pk, "note"));
    }

    public void publishAfterNativeUpdate(long id) {
        em.createNativeQuery("UPDATE it_note SET text = 'changed natively' WHERE id = " + id).executeUpdate();
        publisher.publish(SourceEvent.updated("ItNote", id, "text"));
    }

    /**
     * Writes a note with plain JDBC through the application's datasource and publishes its creation: no entity
     * changes, so the persistence provider commits nothing and the row goes through the datasource path.
     */
    public long publishAfterJdbcWrite() {
        try {
            DataSource dataSource = (DataSource) new InitialContext().lookup(dataSourceName);
            long id;
            try (Connection connection = dataSource.getConnection();
                 PreparedStatement insert = connection.prepareStatement(
                         "INSERT INTO it_note (text) VALUES ('written with JDBC') RETURNING id");
                 ResultSet created = insert.executeQuery()) {
                created.next();
                id = created.getLong(1);
            }
            publisher.publish(SourceEvent.created("ItNote", id));
            return id;
        } catch (NamingException | SQLException e) {
            throw new IllegalStateException("JDBC write failed: " + e.getMessage(), e);
        }
    }

    /**
     * Publishes first, then changes an order without flushing: the publish is the transaction's first contact
     * with Object Streams, the entity manager's first use comes after it.
     */
    public void publishThenUpdate(long id) {
        publisher.publish(SourceEvent.updated("ItNote", "0", "text"));
        em.find(CustomerOrder.class, id).setNote("changed after a publish");
    }

    public void publish(String model, String pk, String field) {
        publisher.publish(SourceEvent.updated(model, pk, field));
    }

    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void publishWithoutTransaction() {
        publisher.publish(SourceEvent.updated("store.CustomerOrder", "1", "status"));
    }

    private static CustomerOrder newOrder(String status) {
        CustomerOrder order = new CustomerOrder();
        order.setOwner("alice");
        order.setStatus(status);
        order.setTotal(new BigDecimal("10.00"));
        order.addLine(new OrderLine("widget", 2, new BigDecimal("5.00")));
        return order;
    }
}
