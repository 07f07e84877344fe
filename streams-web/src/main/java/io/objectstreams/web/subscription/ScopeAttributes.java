package io.objectstreams.web.subscription;

import io.objectstreams.web.visibility.DecidingAttributes;
import io.objectstreams.web.visibility.Scope;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** One batch's answers of {@link DecidingAttributes}, once per scope however many of its rows are decided. */
final class ScopeAttributes {

    /** Stands for "cannot be told" among the answers, since a map's absent key already means "not asked yet". */
    private static final Set<String> UNKNOWN = Set.of("\0unknown");

    private final DecidingAttributes attributes;
    private final Map<Scope, Set<String>> answers = new HashMap<>();

    ScopeAttributes(DecidingAttributes attributes) {
        this.attributes = attributes;
    }

    /** The attributes that decide {@code scope}, or {@code null} when they cannot be told. */
    Set<String> of(Scope scope) {
        Set<String> answer = answers.computeIfAbsent(scope, s -> {
            Set<String> deciding = attributes.of(s);
            return deciding == null ? UNKNOWN : deciding;
        });
        return answer == UNKNOWN ? null : answer;
    }
}
