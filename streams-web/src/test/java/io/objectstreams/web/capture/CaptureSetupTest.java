package io.objectstreams.web.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Id;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.metamodel.EntityType;
import jakarta.persistence.metamodel.Metamodel;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the deployment check says of a persistence unit whose provider it cannot ask (issue 40 item 11, G16). */
class CaptureSetupTest {

    @Entity
    @Streamed(model = "test.Ticket")
    static class Ticket {
        @Id
        Long id;
    }

    @Test
    void aUnitOfAnUnknownProviderIsNamedInAWarningInsteadOfPassingUnchecked() {
        CaptureSetup.Checked checked = CaptureSetup.check(List.of(unitOfAnotherProvider()));

        assertThat(checked.streamed()).containsExactly(Ticket.class);
        assertThat(checked.unchecked()).singleElement().satisfies(warning -> assertThat(warning)
                .contains("[Ticket]", "not checked", "META-INF/object-streams-orm.xml"));
    }

    /** A unit that unwraps to neither EclipseLink nor Hibernate, with one {@code @Streamed} entity. */
    private static EntityManagerFactory unitOfAnotherProvider() {
        EntityType<?> ticket = stub(EntityType.class, (name, args) -> "getJavaType".equals(name) ? Ticket.class : null);
        Metamodel metamodel = stub(Metamodel.class, (name, args) -> "getEntities".equals(name) ? Set.of(ticket) : null);
        EntityManager manager = stub(EntityManager.class, (name, args) -> null);
        return stub(EntityManagerFactory.class, (name, args) -> switch (name) {
            case "getMetamodel" -> metamodel;
            case "createEntityManager" -> manager;
            case "unwrap" -> throw new PersistenceException("not this provider");
            default -> null;
        });
    }

    interface Answer {
        Object answer(String method, Object[] args);
    }

    @SuppressWarnings("unchecked")
    private static <T> T stub(Class<T> type, Answer answer) {
        return (T) Proxy.newProxyInstance(CaptureSetupTest.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> type.getSimpleName();
                    default -> answer.answer(method.getName(), args);
                });
    }
}
