package io.objectstreams.web.visibility;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.VisibilityKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys of every row of one (model, filter) under a {@link KeyedVisibilityPolicy}, read in one query
 * ({@link Visibility#modelKeys}) and indexed by key: the members of any number of keyed scopes of that (model,
 * filter), each found in memory in time proportional to its members. A reconnect storm of thousands of distinct
 * viewers reads them once instead of once per viewer.
 */
public final class ModelKeys {

    /** Per key expression, the pks of the rows by each key text. */
    private final List<Map<String, List<String>>> byKey;
    private final List<String> every;

    ModelKeys(Map<String, List<List<String>>> keysOf) {
        this.every = new ArrayList<>(keysOf.keySet()); // a copy: the map of every row's keys is not kept
        this.byKey = new ArrayList<>();
        keysOf.forEach((pk, rows) -> {
            for (List<String> row : rows) {
                for (int i = 0; i < row.size(); i++) {
                    while (byKey.size() <= i) {
                        byKey.add(new HashMap<>());
                    }
                    if (row.get(i) != null) { // a NULL key makes a row visible to nobody through it
                        byKey.get(i).computeIfAbsent(row.get(i), k -> new ArrayList<>(1)).add(pk);
                    }
                }
            }
        });
    }

    /** How many rows of the model match the filter. */
    public int size() {
        return every.size();
    }

    /**
     * The scope's members, exactly as {@link Visibility#members(Scope, int)} reads them, at most {@code limit};
     * {@code null} for a scope that holds no keys of its own (it is read alone).
     */
    public Set<String> members(Scope scope, int limit) {
        VisibilityKeys keys = scope.keys();
        if (keys == null) { // not keyed, or an anonymous viewer the policy does not admit (Visibility#scope)
            return null;
        }
        Set<String> members = new HashSet<>();
        if (keys.isAll()) {
            for (String pk : every) {
                if (members.size() >= limit) {
                    break;
                }
                members.add(pk);
            }
            return members;
        }
        for (int i = 0; i < byKey.size(); i++) {
            for (String key : keys.values(i)) {
                for (String pk : byKey.get(i).getOrDefault(key, List.of())) {
                    members.add(pk);
                    if (members.size() >= limit) {
                        return members;
                    }
                }
            }
        }
        return members;
    }
}
