package io.objectstreams.it.support.server;

import io.objectstreams.StreamsAction;
import io.objectstreams.demo.store.CustomerOrder;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The soak's failing writes: a change to an order made as the store's API would make it, then a rollback. Either
 * the method throws after the change was flushed, or the transaction fails in its commit, after Object Streams
 * wrote its outbox rows in {@code beforeCompletion}: a deferred unique constraint on {@code it_soak_guard} is
 * broken in the same transaction. Neither may leave an outbox row or send an event (G1).
 */
@Stateless
@StreamsAction
public class SoakRollbacks {

    /** The note every failing write sets; a committed soak write never changes the note. */
    public static final String MARK = "soak rollback";

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Inject
    @ConfigProperty(name = "streams.datasource")
    String dataSourceName;

    public void changeThenFail(String action, Long id, String owner, boolean atCommit) {
        switch (action) {
            case "create" -> {
                CustomerOrder order = new CustomerOrder();
                order.setOwner(owner);
                order.setStatus("draft");
                order.setTotal(new BigDecimal("1.00"));
                order.setNote(MARK);
                em.persist(order);
            }
            case "update" -> {
                CustomerOrder order = existing(id);
                order.setNote(MARK);
                order.setStatus("cancelled");
            }
            case "delete" -> em.remove(existing(id));
            default -> throw new IllegalArgumentException("unknown action " + action);
        }
        em.flush();
        if (!atCommit) {
            throw new ScenarioFailure("soak: " + action + " rolled back after flush");
        }
        breakDeferredConstraint();
    }

    private CustomerOrder existing(Long id) {
        CustomerOrder order = id == null ? null : em.find(CustomerOrder.class, id);
        if (order == null) {
            throw new ScenarioFailure("soak: no order " + id);
        }
        return order;
    }

    /** A second row with key 0: legal until the transaction commits, where the deferred check fails it. */
    private void breakDeferredConstraint() {
        try (Connection connection = ((DataSource) new InitialContext().lookup(dataSourceName)).getConnection();
             Statement insert = connection.createStatement()) {
            insert.executeUpdate("INSERT INTO it_soak_guard (k) VALUES (0)");
        } catch (NamingException | SQLException e) {
            throw new IllegalStateException("soak: could not write the guard row: " + e.getMessage(), e);
        }
    }
}
