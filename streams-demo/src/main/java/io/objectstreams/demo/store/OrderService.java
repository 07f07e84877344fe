package io.objectstreams.demo.store;

import io.objectstreams.EventOperation;
import io.objectstreams.SourceEvent;
import io.objectstreams.StreamsAction;
import io.objectstreams.StreamsPublisher;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import java.util.List;

/**
 * The store's transactional operations. Every write goes through JPA, so the capture listener records it;
 * the bulk status change bypasses entity listeners and reports itself through {@link StreamsPublisher}.
 */
@Stateless
@StreamsAction
public class OrderService {

    static final String MODEL = "store.CustomerOrder";

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Inject
    StreamsPublisher publisher;

    public List<CustomerOrder> list(Caller caller) {
        TypedQuery<CustomerOrder> query = caller.staff()
                ? em.createQuery("SELECT o FROM CustomerOrder o ORDER BY o.id", CustomerOrder.class)
                : em.createQuery("SELECT o FROM CustomerOrder o WHERE o.owner = :owner"
                        + " ORDER BY o.id", CustomerOrder.class)
                        .setParameter("owner", caller.name());
        List<CustomerOrder> orders = query.getResultList();
        orders.forEach(OrderService::withLines);
        return orders;
    }

    public CustomerOrder get(Caller caller, long id) {
        return withLines(find(caller, id));
    }

    /** The REST layer renders lines after the transaction ended; load them while it is open (any provider). */
    private static CustomerOrder withLines(CustomerOrder order) {
        order.getLines().size();
        return order;
    }

    public CustomerOrder create(Caller caller, OrderInput input) {
        input.requireComplete();
        CustomerOrder order = new CustomerOrder();
        order.setOwner(ownerFor(caller, input));
        apply(order, input);
        em.persist(order);
        em.flush();
        return withLines(order);
    }

    /** A full replacement: absent optional fields are cleared, lines are replaced. */
    public CustomerOrder replace(Caller caller, long id, OrderInput input) {
        input.requireComplete();
        CustomerOrder order = find(caller, id);
        if (input.owner().isPresent()) {
            order.setOwner(ownerFor(caller, input));
        }
        order.setNote(input.note().flatMap(n -> n).orElse(null));
        apply(order, input);
        if (input.lines().isEmpty()) {
            order.getLines().clear();
        }
        em.flush();
        return withLines(order);
    }

    public CustomerOrder patch(Caller caller, long id, OrderInput input) {
        CustomerOrder order = find(caller, id);
        if (input.owner().isPresent()) {
            order.setOwner(ownerFor(caller, input));
        }
        apply(order, input);
        em.flush();
        return withLines(order);
    }

    public void delete(Caller caller, long id) {
        em.remove(find(caller, id));
    }

    /**
     * Staff only: creates an order again under the id of one that was deleted (an undo, an import from a backup), so
     * the pk comes back as a natural key does. The row is written in SQL, which no entity listener sees, so the
     * change reports itself through {@link StreamsPublisher}, in the same transaction. An id in use is refused.
     */
    public CustomerOrder restore(Caller caller, long id, OrderInput input) {
        if (!caller.staff()) {
            throw new InvalidInput("id", "Only staff may restore a deleted order");
        }
        input.requireComplete();
        if (input.lines().isPresent()) {
            throw new InvalidInput("lines", "A restored order starts without lines; add them afterwards");
        }
        if (em.find(CustomerOrder.class, id) != null) {
            throw new InvalidInput("id", "Order " + id + " exists; only a deleted order can be restored");
        }
        em.createNativeQuery("INSERT INTO store_order (id, owner, status, total, note) VALUES (?1, ?2, ?3, ?4, ?5)")
                .setParameter(1, id)
                .setParameter(2, ownerFor(caller, input))
                .setParameter(3, input.status().orElseThrow())
                .setParameter(4, input.total().orElseThrow())
                .setParameter(5, input.note().flatMap(n -> n).orElse(null))
                .executeUpdate();
        publisher.publish(new SourceEvent(MODEL, Long.toString(id), "object", EventOperation.CREATED, List.of()));
        return withLines(find(caller, id));
    }

    /** Removes one line of an order the caller may see; a line of another order, or none, is not found. */
    public CustomerOrder removeLine(Caller caller, long id, long lineId) {
        CustomerOrder order = find(caller, id);
        OrderLine line = order.getLines().stream().filter(l -> l.getId() == lineId).findFirst()
                .orElseThrow(() -> new OrderNotFound(id, lineId));
        order.removeLine(line);
        em.flush();
        return withLines(order);
    }

    /**
     * Moves every visible order in status {@code from} to {@code to} with one JPQL bulk update. Bulk updates
     * bypass entity listeners, so each affected order is published explicitly, in the same transaction.
     */
    public int bulkStatus(Caller caller, String from, String to) {
        TypedQuery<Long> select = caller.staff()
                ? em.createQuery("SELECT o.id FROM CustomerOrder o WHERE o.status = :from ORDER BY o.id", Long.class)
                : em.createQuery("SELECT o.id FROM CustomerOrder o WHERE o.status = :from AND o.owner = :owner"
                        + " ORDER BY o.id", Long.class).setParameter("owner", caller.name());
        // Locked so the set published is exactly the set updated, whatever commits meanwhile.
        List<Long> ids = select.setParameter("from", from).setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
        if (ids.isEmpty() || from.equals(to)) {
            return 0;
        }
        int updated = em.createQuery("UPDATE CustomerOrder o SET o.status = :to WHERE o.id IN :ids")
                .setParameter("to", to)
                .setParameter("ids", ids)
                .executeUpdate();
        for (Long id : ids) {
            publisher.publish(new SourceEvent(MODEL, id.toString(), "object", EventOperation.UPDATED,
                    List.of("status")));
        }
        return updated;
    }

    private CustomerOrder find(Caller caller, long id) {
        CustomerOrder order = em.find(CustomerOrder.class, id);
        if (order == null || !caller.canSee(order)) {
            throw new OrderNotFound(id);
        }
        return order;
    }

    private static String ownerFor(Caller caller, OrderInput input) {
        String owner = input.owner().orElse(caller.name());
        if (!caller.staff() && !owner.equals(caller.name())) {
            throw new InvalidInput("owner", "Only staff may create or move orders for another user");
        }
        return owner;
    }

    private static void apply(CustomerOrder order, OrderInput input) {
        input.status().ifPresent(order::setStatus);
        input.total().ifPresent(order::setTotal);
        input.note().ifPresent(n -> order.setNote(n.orElse(null)));
        input.lines().ifPresent(lines -> {
            order.getLines().clear();
            lines.forEach(l -> order.addLine(new OrderLine(l.product(), l.quantity(), l.unitPrice())));
        });
    }
}
