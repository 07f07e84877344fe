package io.objectstreams;

import io.objectstreams.internal.keys.InvalidKeyText;
import io.objectstreams.internal.keys.KeySpelling;
import io.objectstreams.internal.visibility.KeyPaths;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Predicate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The keys a viewer holds under a {@link KeyedVisibilityPolicy}: for each of the policy's key expressions, the values
 * that make a row visible to the viewer; or every row ({@link #all()}), or none ({@link #none()}). Values compare by
 * their canonical text ({@link #keyText}), so {@code 7}, {@code 7L} and {@code "7"} are one key. Keys may be text,
 * whole numbers ({@code Long}, {@code Integer}, {@code Short}, {@code Byte}, {@code BigInteger}), UUIDs, booleans,
 * {@code LocalDate}s or enums (by name), spelled as a subject's pk is; a value of another type is no key.
 */
public final class VisibilityKeys {

    private static final VisibilityKeys ALL = new VisibilityKeys(true, List.of());
    private static final VisibilityKeys NONE = new VisibilityKeys(false, List.of());

    private final boolean all;
    private final List<Set<String>> byExpression;

    private VisibilityKeys(boolean all, List<Set<String>> byExpression) {
        this.all = all;
        this.byExpression = byExpression;
    }

    /** Every row is visible, whatever its keys (staff). */
    public static VisibilityKeys all() {
        return ALL;
    }

    /** No row is visible. */
    public static VisibilityKeys none() {
        return NONE;
    }

    /**
     * A row is visible when the value of key expression {@code i} is one of {@code values[i]}, for some {@code i}.
     * Give one collection per expression of {@link KeyedVisibilityPolicy#visibleBy}, in the same order; an empty
     * collection matches nothing through that expression. {@code null} values are ignored: a {@code NULL} key
     * makes a row visible to nobody through that expression, as in SQL.
     */
    public static VisibilityKeys of(Collection<?>... values) {
        List<Set<String>> sets = new ArrayList<>(values.length);
        boolean any = false;
        for (Collection<?> expression : values) {
            Set<String> texts = new HashSet<>();
            for (Object value : expression) {
                String text = keyText(value);
                if (text != null) {
                    texts.add(text);
                }
            }
            any |= !texts.isEmpty();
            sets.add(Set.copyOf(texts));
        }
        return any ? new VisibilityKeys(false, List.copyOf(sets)) : NONE;
    }

    /**
     * The canonical text of a key value, as keys are compared: {@code null} for {@code null} and for a value of a
     * type keys cannot have (see the class comment).
     */
    public static String keyText(Object value) {
        return KeySpelling.textOrNull(value);
    }

    /** Whether a key expression of {@code type} can hold keys: otherwise a policy naming it is refused when used. */
    public static boolean supportsKeyType(Class<?> type) {
        return KeySpelling.supports(type);
    }

    public boolean isAll() {
        return all;
    }

    public boolean isNone() {
        return !all && byExpression.isEmpty();
    }

    /**
     * How many key expressions these keys give values for (some may be empty); 0 for {@link #all()} and
     * {@link #none()}.
     */
    public int expressions() {
        return byExpression.size();
    }

    /** The values that make a row visible through key expression {@code index}; empty past the last one given. */
    public Set<String> values(int index) {
        return index < byExpression.size() ? byExpression.get(index) : Set.of();
    }

    /**
     * Whether a subject with these rows of keys is visible: through any of them, or to a holder of every key as soon
     * as it exists, with no row at all ({@code null} is a subject that does not exist or does not match).
     */
    public boolean admitsAny(List<List<String>> rows) {
        return rows != null && (all || rows.stream().anyMatch(this::admits));
    }

    /**
     * Whether a row whose key expressions have the texts {@code rowKeys} ({@link #keyText} of each value; {@code null}
     * for SQL NULL) is visible.
     */
    public boolean admits(List<String> rowKeys) {
        if (all) {
            return true;
        }
        for (int i = 0; i < rowKeys.size() && i < byExpression.size(); i++) {
            String key = rowKeys.get(i);
            if (key != null && byExpression.get(i).contains(key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The predicate these keys state over a policy's key expressions {@code by}
     * ({@link KeyedVisibilityPolicy#visibleBy}): some expression's value is one of its keys. The keys compare by their
     * text in memory; here each is read back as its expression's type, and a key that cannot be a value of that type
     * (text for a numeric column) names no row, in SQL as in memory. A path through a to-one association is read
     * through a left join of it, as the engine reads the keys, so a row whose link is null stays visible through the
     * other expressions. For {@link #all()} the predicate is true; callers skip {@code visibleBy} then, as its joins
     * would multiply rows for nothing.
     */
    public Predicate toPredicate(List<Expression<?>> by, CriteriaBuilder cb) {
        if (all) {
            return cb.conjunction();
        }
        List<Expression<?>> asked = new ArrayList<>();
        List<List<Object>> valuesAsked = new ArrayList<>();
        for (int i = 0; i < by.size(); i++) {
            List<Object> values = valuesOf(values(i), by.get(i).getJavaType());
            if (!values.isEmpty()) {
                asked.add(by.get(i));
                valuesAsked.add(values);
            }
        }
        // Only the expressions asked are joined: a join of one the viewer holds no key of would be read for nothing.
        List<Expression<?>> read = KeyPaths.leftJoined(asked);
        List<Predicate> any = new ArrayList<>();
        for (int i = 0; i < read.size(); i++) {
            any.add(read.get(i).in(valuesAsked.get(i)));
        }
        return any.isEmpty() ? cb.disjunction() : cb.or(any.toArray(Predicate[]::new));
    }

    /** The values of {@code type} whose canonical text is one of {@code texts}; any other text is left out. */
    static List<Object> valuesOf(Collection<String> texts, Class<?> type) {
        List<Object> values = new ArrayList<>(texts.size());
        for (String text : texts) {
            try {
                // Only a canonical spelling ("7", not "007"): in memory the row's key is compared by its text.
                values.add(KeySpelling.parse(text, type));
            } catch (InvalidKeyText noValue) {
                // names no row, in SQL as in memory
            }
        }
        return values;
    }

    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof VisibilityKeys that && all == that.all
                && byExpression.equals(that.byExpression);
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(all) * 31 + byExpression.hashCode();
    }

    @Override
    public String toString() {
        return all ? "VisibilityKeys[all]" : "VisibilityKeys" + byExpression;
    }
}
