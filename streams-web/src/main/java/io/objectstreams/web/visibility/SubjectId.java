package io.objectstreams.web.visibility;

import io.objectstreams.internal.keys.JpaMembers;
import io.objectstreams.internal.keys.InvalidKeyText;
import io.objectstreams.internal.keys.PkText;
import jakarta.persistence.Tuple;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import java.lang.reflect.AccessibleObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How the delivery engine's queries name a model's subjects: the paths of the entity's key and the pk each row
 * spells ({@link PkText}). A single key is one path, matched with {@code IN}; a composite key is one path per
 * part ({@code @EmbeddedId} or {@code @IdClass}), matched part by part, its pk the JSON array of the parts.
 */
final class SubjectId {

    private static final Map<Class<?>, SubjectId> CACHE = new ConcurrentHashMap<>();

    /** Path names from the root: {@code id}, or {@code key.region}, {@code key.number}, or {@code region}, ... */
    private final List<String[]> paths;
    private final List<Class<?>> types;
    private final boolean composite;

    private SubjectId(List<String[]> paths, List<Class<?>> types, boolean composite) {
        this.paths = paths;
        this.types = types;
        this.composite = composite;
    }

    static SubjectId of(Class<?> entity) {
        return CACHE.computeIfAbsent(entity, SubjectId::inspect);
    }

    private static SubjectId inspect(Class<?> entity) {
        JpaMembers.Key key = JpaMembers.key(entity);
        List<String[]> paths = new ArrayList<>();
        for (AccessibleObject part : key.components()) {
            String name = JpaMembers.attributeName(part);
            paths.add(key.embeddedId() == null ? new String[] {name}
                    : new String[] {JpaMembers.attributeName(key.embeddedId()), name});
        }
        return new SubjectId(List.copyOf(paths), key.types(), key.composite());
    }

    /** How many columns {@link #select} adds. */
    int width() {
        return paths.size();
    }

    /** The key's paths on {@code root}, to select (in this order) or compare. */
    List<Path<Object>> select(Root<?> root) {
        List<Path<Object>> selected = new ArrayList<>(paths.size());
        for (String[] names : paths) {
            Path<Object> path = root.get(names[0]);
            for (int i = 1; i < names.length; i++) {
                path = path.get(names[i]);
            }
            selected.add(path);
        }
        return selected;
    }

    /** The pk a row spells from the key's columns, which begin at {@code from}. */
    String pk(Tuple row, int from) {
        Object[] parts = new Object[paths.size()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = row.get(from + i);
        }
        return PkText.text(parts);
    }

    /** The key of a pk: the id, or the array of a composite key's parts; {@code null} when it cannot be one. */
    Object parse(String pk) {
        try {
            return PkText.read(pk, types);
        } catch (InvalidKeyText noKey) {
            return null;
        }
    }

    /** The keys of those pks that can be one. */
    List<Object> parse(Collection<String> pks) {
        return pks.stream().map(this::parse).filter(Objects::nonNull).toList();
    }

    /** A pk as events spell it ({@code 7} for {@code 007} of a numeric id); {@code null} when it cannot be a key. */
    String canonical(String pk) {
        Object key = parse(pk);
        return key == null ? null : PkText.textOf(key);
    }

    /**
     * {@code ids} in lists small enough for one query's {@link #among}: at most 20,000 bind parameters each, whatever
     * the key's width, so that a {@code members} list of any allowed size stays below the 65,535 parameters a
     * PostgreSQL statement can bind, with room for the predicates beside it.
     */
    List<List<Object>> chunks(List<Object> ids) {
        int size = Math.max(1, 20_000 / width());
        if (ids.size() <= size) {
            return List.of(ids);
        }
        List<List<Object>> chunks = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += size) {
            chunks.add(ids.subList(from, Math.min(ids.size(), from + size)));
        }
        return chunks;
    }

    /**
     * Rows whose key may be one of {@code keys} ({@link #parse}), which must not be empty. Exact for a single key
     * ({@code IN}). For a composite key, each part {@code IN} its values: a bounded superset (of the parts' cross
     * product), which the caller narrows with {@link #exact}; one predicate per key would bind parts times keys
     * parameters, past PostgreSQL's limit for a large {@code members} list.
     */
    Predicate among(CriteriaBuilder cb, List<Path<Object>> key, List<Object> keys) {
        if (!composite) {
            return key.get(0).in(keys);
        }
        Predicate[] parts = new Predicate[key.size()];
        for (int i = 0; i < parts.length; i++) {
            int part = i;
            parts[i] = key.get(i).in(keys.stream().map(k -> ((Object[]) k)[part]).distinct().toList());
        }
        return cb.and(parts);
    }

    /**
     * The pks, as rows spell them, that {@link #among} asked for; {@code null} when {@code among} is exact already,
     * so that there is nothing to narrow.
     */
    Set<String> exact(Collection<String> pks) {
        if (!composite) {
            return null;
        }
        Set<String> wanted = new HashSet<>();
        for (String pk : pks) {
            Object key = parse(pk);
            if (key != null) {
                wanted.add(PkText.textOf(key));
            }
        }
        return wanted;
    }
}
