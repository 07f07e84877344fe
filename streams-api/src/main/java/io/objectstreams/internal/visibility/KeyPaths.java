package io.objectstreams.internal.visibility;

import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.From;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.JoinType;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.metamodel.Attribute;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A keyed policy's key expressions as the engine reads them: a path that goes through a to-one association
 * ({@code root.get("folder").get("tenant")}) goes through a left join of it instead.
 *
 * <p>In JPA, navigating an association with {@code Path.get} is an inner join, and not one a query can see:
 * Hibernate keeps it out of {@code From.getJoins()}, EclipseLink lists it there as an ordinary inner join. A subject
 * whose link is null would then have no row of keys at all: gone for a holder of every key, who was told it is a
 * member, and for the policy's other expressions (its owner). Left-joined, it has its row with a NULL key there,
 * which makes it visible to nobody through that expression only (G8). The joins a policy makes itself, with
 * {@code join}, are kept as it made them: a collection, or a join the policy chose to make inner.
 */
public final class KeyPaths {

    private KeyPaths() {
    }

    /** {@code by} with each to-one link a path navigates left-joined, one join per link; other expressions as given. */
    public static List<Expression<?>> leftJoined(List<Expression<?>> by) {
        Map<From<?, ?>, Map<String, Join<?, ?>>> made = new IdentityHashMap<>();
        List<Expression<?>> read = new ArrayList<>(by.size());
        for (Expression<?> expression : by) {
            read.add(leftJoined(expression, made));
        }
        return read;
    }

    private static Expression<?> leftJoined(Expression<?> expression, Map<From<?, ?>, Map<String, Join<?, ?>>> made) {
        if (!(expression instanceof Path<?> path)) {
            return expression; // a function, a literal: nothing to navigate
        }
        Deque<Path<?>> steps = new ArrayDeque<>();
        Path<?> at = path;
        for (; !(at instanceof Root<?>); at = at.getParentPath()) {
            if (at == null) {
                return expression; // not on a root (a correlated or treated path): read as the policy wrote it
            }
            steps.push(at);
        }
        Path<?> current = at;
        boolean rebuilt = false;
        while (!steps.isEmpty()) {
            Path<?> step = steps.pop();
            Attribute<?, ?> attribute = attribute(step);
            if (attribute == null) {
                return expression;
            }
            if (isLink(step, attribute) && !steps.isEmpty()) {
                if (!(current instanceof From<?, ?> from)) {
                    return expression; // a link inside an embeddable: no join can be made from it here
                }
                current = made.computeIfAbsent(from, f -> new HashMap<>())
                        .computeIfAbsent(attribute.getName(), name -> from.join(name, JoinType.LEFT));
                rebuilt = true;
            } else if (step instanceof Join<?, ?> && attribute.isCollection()
                    || step instanceof Join<?, ?> join && join.getJoinType() == JoinType.LEFT) {
                if (rebuilt) {
                    return expression; // the policy's own join hangs from a link replaced above: keep its paths
                }
                current = step;
            } else {
                current = rebuilt ? current.get(attribute.getName()) : step;
            }
        }
        return rebuilt ? current : expression;
    }

    /** A to-one association not already left-joined: the step an implicit inner join would make. */
    private static boolean isLink(Path<?> step, Attribute<?, ?> attribute) {
        return attribute.isAssociation() && !attribute.isCollection()
                && !(step instanceof Join<?, ?> join && join.getJoinType() == JoinType.LEFT);
    }

    private static Attribute<?, ?> attribute(Path<?> step) {
        if (step instanceof Join<?, ?> join) {
            return join.getAttribute();
        }
        return step.getModel() instanceof Attribute<?, ?> attribute ? attribute : null;
    }
}
