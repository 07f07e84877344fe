package io.objectstreams.internal.capture;

import io.objectstreams.internal.outbox.OutboxWriter;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The subject each part instance was last seen attached to, kept for as long as the instance lives, across
 * transactions. A part loaded in one transaction and moved or detached in a later one (an extended persistence
 * context, a conversation bean) has no snapshot in the transaction that writes it; the subject it left is found here,
 * so that subject is told too (G16).
 *
 * <p>Instances are held weakly and compared by identity, whatever the entity's {@code equals} says. The value is the
 * subject's model and pk as text, never the subject instance: a subject usually holds its parts in a collection, and
 * a strong path from value to key would keep every entry alive.
 */
final class PartSubjects {

    private final ReferenceQueue<Object> cleared = new ReferenceQueue<>();
    private final Map<Instance, OutboxWriter.Subject> subjects = new ConcurrentHashMap<>();

    /** Remembers the subject a part is attached to now; {@code null} forgets it (detached or deleted). */
    void remember(Object part, OutboxWriter.Subject subject) {
        expungeCleared();
        if (subject == null) {
            subjects.remove(new Instance(part, null));
        } else {
            subjects.put(new Instance(part, cleared), subject);
        }
    }

    /** The subject the part was last seen attached to, or {@code null} if it was never seen attached. */
    OutboxWriter.Subject lastKnown(Object part) {
        return subjects.get(new Instance(part, null));
    }

    int size() {
        expungeCleared();
        return subjects.size();
    }

    private void expungeCleared() {
        for (Object gone = cleared.poll(); gone != null; gone = cleared.poll()) {
            subjects.remove(gone);
        }
    }

    /** A weak reference equal to another only while both still point at the same instance. */
    private static final class Instance extends WeakReference<Object> {

        private final int hash;

        Instance(Object referent, ReferenceQueue<Object> queue) {
            super(referent, queue);
            this.hash = System.identityHashCode(referent);
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            Object referent = get();
            return other instanceof Instance that && referent != null && referent == that.get();
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
