package io.objectstreams.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamsException;
import io.objectstreams.protocol.LibraryErrorCode;
import java.lang.reflect.UndeclaredThrowableException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReachabilityTest {

    private final List<Duration> waited = new ArrayList<>();
    private final Reachability.Sleeper recorder = waited::add;

    private static RuntimeException wrapped(String sqlState) {
        // As Payara's pool hands it over when PostgreSQL restarted under a pooled connection.
        return new UndeclaredThrowableException(new java.lang.reflect.InvocationTargetException(
                new SQLException("This connection has been closed.", sqlState)));
    }

    @Test
    void connectionFailuresAndAStartingOrStoppingServerAreUnreachableWhateverWrapsThem() {
        assertThat(Reachability.unreachable(wrapped("08003"))).isTrue();
        assertThat(Reachability.unreachable(new StreamsException(LibraryErrorCode.SCHEMA_MIGRATION_FAILED, "y",
                new SQLException("refused", "08001")))).isTrue();
        assertThat(Reachability.unreachable(new IllegalStateException(new SQLException("shutting down", "57P01")))).isTrue();
        assertThat(Reachability.unreachable(new IllegalStateException(new SQLException("starting up", "57P03")))).isTrue();
        assertThat(Reachability.unreachable(new IllegalStateException(new SQLException("denied", "42501")))).isFalse();
        assertThat(Reachability.unreachable(new IllegalStateException(new SQLException("no state")))).isFalse();
        assertThat(Reachability.unreachable(new IllegalStateException("no SQL at all"))).isFalse();
    }

    @Test
    void anUnreachableDatabaseIsWaitedForWithGrowingDelays() {
        AtomicInteger attempts = new AtomicInteger();
        int result = Reachability.retry(() -> {
            if (attempts.incrementAndGet() < 5) {
                throw wrapped("08001");
            }
            return 42;
        }, Duration.ofMinutes(1), recorder, "test");
        assertThat(result).isEqualTo(42);
        assertThat(waited).containsExactly(Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
                Duration.ofSeconds(4));
    }

    @Test
    void aRefusalThatIsNotAboutReachingTheDatabaseFailsAtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> Reachability.retry(() -> {
            attempts.incrementAndGet();
            throw new StreamsException(LibraryErrorCode.SCHEMA_MIGRATION_FAILED, "permission denied",
                    new SQLException("permission denied for schema public", "42501"));
        }, Duration.ofMinutes(1), recorder, "test")).isInstanceOf(StreamsException.class);
        assertThat(attempts).hasValue(1);
        assertThat(waited).isEmpty();
    }

    @Test
    void noTimeoutMeansOneAttempt() {
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> Reachability.retry(() -> {
            attempts.incrementAndGet();
            throw wrapped("08001");
        }, Duration.ZERO, recorder, "test")).isInstanceOf(UndeclaredThrowableException.class);
        assertThat(attempts).hasValue(1);
    }
}
