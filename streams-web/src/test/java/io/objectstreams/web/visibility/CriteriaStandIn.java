package io.objectstreams.web.visibility;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Tuple;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.JoinType;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.metamodel.Attribute;
import jakarta.persistence.metamodel.Attribute.PersistentAttributeType;
import jakarta.persistence.metamodel.Bindable;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for a JPA provider's Criteria API, as much of it as the key rows' queries use: it builds paths and
 * joins the way Hibernate or EclipseLink shape them, and answers a query over a world of subjects as the database
 * would: a join the query makes is rendered (inner or left), and so is one a selected path makes by navigating a
 * link with {@code get}, which is an inner join (JPA 3.1, 4.4.4). It ignores the WHERE clause: every subject of the
 * world matches. Anything else it is asked fails the test, so that it never answers what a provider would not.
 */
final class CriteriaStandIn {

    /** How {@code Path.get} of an association is shaped: a path outside the joins, or an inner join listed in them. */
    enum Provider { HIBERNATE, ECLIPSELINK }

    /** A query as built: its root, what it selects, how many rows it may read. */
    static final class Query {
        Node root;
        List<Node> selection = List.of();
        int maxResults = Integer.MAX_VALUE;
    }

    private final Provider provider;
    private final Map<String, Class<?>> types;
    private final List<Map<String, Object>> world;
    /** Every expression compared with {@code in}, in order. */
    final List<Object> compared = new ArrayList<>();

    /**
     * {@code types}: each attribute's type by name; an attribute of a type annotated as an entity is a to-one link,
     * of an array type a collection of its elements. {@code world}: the subjects, by attribute name; a link's value
     * is the linked object's map (or {@code null}), a collection's a list.
     */
    CriteriaStandIn(Provider provider, Map<String, Class<?>> types, List<Map<String, Object>> world) {
        this.provider = provider;
        this.types = types;
        this.world = world;
    }

    EntityManager entityManager() {
        CriteriaBuilder cb = proxy(CriteriaBuilder.class, (method, args) -> switch (method.getName()) {
            case "createTupleQuery" -> query();
            case "and", "or", "conjunction", "disjunction" ->
                    new Node(this, "predicate", null, null).as(Predicate.class);
            default -> unsupported(method);
        });
        EntityManager[] em = new EntityManager[1];
        EntityManagerFactory factory = proxy(EntityManagerFactory.class, (method, args) -> switch (method.getName()) {
            case "createEntityManager" -> em[0];
            default -> unsupported(method);
        });
        em[0] = proxy(EntityManager.class, (method, args) -> switch (method.getName()) {
            case "getCriteriaBuilder" -> cb;
            case "getEntityManagerFactory" -> factory;
            case "createQuery" -> typedQuery((Query) ((Handler) Proxy.getInvocationHandler(args[0])).state());
            case "close" -> null;
            default -> unsupported(method);
        });
        return em[0];
    }

    /** The links a path goes through as inner joins, from the root: {@code folder} of {@code folder.tenant}. */
    static List<String> innerLinks(Object expression) {
        List<String> links = new ArrayList<>();
        for (Node node = Node.of(expression); node != null && node.parent != null; node = node.parent) {
            if (node.isLink() && node.joinType != JoinType.LEFT && node != Node.of(expression)) {
                links.add(0, node.attribute);
            }
        }
        return links;
    }

    /** The attribute names from the root to a path: {@code [folder, tenant]}. */
    static List<String> names(Object expression) {
        List<String> names = new ArrayList<>();
        for (Node node = Node.of(expression); node != null && node.parent != null; node = node.parent) {
            names.add(0, node.attribute);
        }
        return names;
    }

    private Object query() {
        Query query = new Query();
        CriteriaQuery<?>[] self = new CriteriaQuery<?>[1];
        self[0] = proxy(CriteriaQuery.class, query, (method, args) -> switch (method.getName()) {
            case "from" -> {
                query.root = new Node(this, "root", null, null);
                query.root.javaType = (Class<?>) args[0];
                yield query.root.as(Root.class);
            }
            case "multiselect" -> {
                Object[] selected = args[0] instanceof List<?> list ? list.toArray() : (Object[]) args[0];
                query.selection = Arrays.stream(selected).map(Node::of).toList();
                yield self[0];
            }
            case "where", "distinct" -> self[0];
            default -> unsupported(method);
        });
        return self[0];
    }

    /** The query's rows over the world: a row per subject and binding of its rendered joins, none past a NULL link. */
    private List<List<Object>> rows(Query query) {
        List<List<Object>> rows = new ArrayList<>();
        for (Map<String, Object> subject : world) {
            for (Map<Node, Object> binding : bindings(query.root, subject)) {
                List<Object> row = new ArrayList<>();
                for (Node column : query.selection) {
                    row.add(column.value(binding));
                }
                if (!row.contains(DROPPED)) {
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** The rows of the joins the query makes itself (not those EclipseLink's paths made, rendered only when used). */
    private static List<Map<Node, Object>> bindings(Node root, Map<String, Object> subject) {
        List<Map<Node, Object>> bindings = new ArrayList<>();
        bindings.add(Map.of(root, subject));
        List<Node> joins = new ArrayList<>(root.joins);
        for (int i = 0; i < joins.size(); i++) {
            Node join = joins.get(i);
            joins.addAll(join.joins);
            if (join.implicit) {
                continue;
            }
            List<Map<Node, Object>> joined = new ArrayList<>();
            for (Map<Node, Object> binding : bindings) {
                Object owner = binding.get(join.parent);
                Object value = owner == null ? null : ((Map<?, ?>) owner).get(join.attribute);
                List<?> values = join.isCollection() ? (List<?>) value : value == null ? List.of() : List.of(value);
                for (Object one : values.isEmpty() && join.joinType == JoinType.LEFT ? Arrays.asList((Object) null)
                        : values) {
                    Map<Node, Object> next = new java.util.HashMap<>(binding);
                    next.put(join, one);
                    joined.add(next);
                }
            }
            bindings = joined;
        }
        return bindings;
    }

    private static final Object DROPPED = new Object();

    private TypedQuery<Tuple> typedQuery(Query query) {
        TypedQuery<?>[] typed = new TypedQuery<?>[1];
        typed[0] = proxy(TypedQuery.class, (method, args) -> switch (method.getName()) {
            case "setMaxResults" -> {
                query.maxResults = (Integer) args[0];
                yield typed[0];
            }
            case "getResultList" -> rows(query).stream().limit(query.maxResults).map(CriteriaStandIn::tuple).toList();
            default -> unsupported(method);
        });
        @SuppressWarnings("unchecked")
        TypedQuery<Tuple> tuples = (TypedQuery<Tuple>) typed[0];
        return tuples;
    }

    private static Tuple tuple(List<Object> values) {
        return proxy(Tuple.class, (method, args) -> switch (method.getName()) {
            case "get" -> values.get((Integer) args[0]);
            case "toArray" -> values.toArray();
            default -> unsupported(method);
        });
    }

    /** One path, join, root or predicate. */
    static final class Node {
        final CriteriaStandIn db;
        final String kind;
        final Node parent;
        final String attribute;
        final List<Node> joins = new ArrayList<>();
        JoinType joinType;
        boolean implicit;
        Class<?> javaType;
        Object proxy;

        Node(CriteriaStandIn db, String kind, Node parent, String attribute) {
            this.db = db;
            this.kind = kind;
            this.parent = parent;
            this.attribute = attribute;
            this.javaType = attribute == null ? null : db.types.get(attribute);
        }

        static Node of(Object proxy) {
            return (Node) ((Handler) Proxy.getInvocationHandler(proxy)).state();
        }

        /** The value of this path in a row of its query's joins: {@code DROPPED} past a link navigated as NULL. */
        Object value(Map<Node, Object> binding) {
            if (binding.containsKey(this)) {
                return binding.get(this);
            }
            Object owner = parent.value(binding);
            if (owner == DROPPED || owner == null && parent.isLink() && !binding.containsKey(parent)) {
                return DROPPED; // the inner join a path's get of a link makes finds no row
            }
            return owner == null ? null : ((Map<?, ?>) owner).get(attribute);
        }

        boolean isLink() {
            return javaType != null && javaType.isAnnotationPresent(jakarta.persistence.Entity.class);
        }

        boolean isCollection() {
            return type().isArray();
        }

        /** The attribute's own type: for a join of a collection, the collection's, not its elements'. */
        private Class<?> type() {
            return attribute == null ? javaType : db.types.get(attribute);
        }

        <T> T as(Class<T> type) {
            Class<?>[] faces = kind.equals("root") ? new Class<?>[] {Root.class}
                    : kind.equals("join") ? new Class<?>[] {Join.class}
                    : kind.equals("predicate") ? new Class<?>[] {Predicate.class} : new Class<?>[] {Path.class};
            proxy = Proxy.newProxyInstance(CriteriaStandIn.class.getClassLoader(), faces,
                    new Handler(this, this::answer));
            return type.cast(proxy);
        }

        private Object answer(Method method, Object[] args) {
            return switch (method.getName()) {
                case "get" -> get((String) args[0]);
                case "join" -> join((String) args[0], args.length > 1 ? (JoinType) args[1] : JoinType.INNER);
                case "getJoins" -> new LinkedHashSet<>(joins.stream().map(j -> j.proxy).toList());
                case "getParentPath", "getParent" -> parent == null ? null : parent.proxy;
                case "getModel", "getAttribute" -> attribute == null ? null : model();
                case "getJoinType" -> joinType;
                case "getJavaType" -> javaType;
                case "in" -> {
                    db.compared.add(proxy);
                    yield new Node(db, "predicate", this, null).as(Predicate.class);
                }
                default -> unsupported(method);
            };
        }

        private Object get(String name) {
            Node child = new Node(db, "path", this, name);
            if (db.provider == Provider.ECLIPSELINK && child.isLink()) {
                // EclipseLink: an inner join, listed among the joins whether the query uses it or not.
                Node join = new Node(db, "join", this, name);
                join.joinType = JoinType.INNER;
                join.implicit = true;
                joins.add(join);
                return join.as(Join.class);
            }
            return child.as(Path.class);
        }

        private Object join(String name, JoinType type) {
            Node join = new Node(db, "join", this, name);
            join.joinType = type;
            join.javaType = join.isCollection() ? join.javaType.getComponentType() : join.javaType;
            joins.add(join);
            return join.as(Join.class);
        }

        private Attribute<?, ?> model() {
            return proxy(new Class<?>[] {Attribute.class, Bindable.class}, (method, args) -> switch (method.getName()) {
                case "getName" -> attribute;
                case "isAssociation" -> isLink();
                case "isCollection" -> isCollection();
                case "getPersistentAttributeType" -> isLink() ? PersistentAttributeType.MANY_TO_ONE
                        : isCollection() ? PersistentAttributeType.ELEMENT_COLLECTION : PersistentAttributeType.BASIC;
                default -> unsupported(method);
            });
        }

        @Override
        public String toString() {
            return String.join(".", names(proxy)) + (joinType == null ? "" : " (" + joinType + ")");
        }
    }

    interface Answer {
        Object answer(Method method, Object[] args);
    }

    /** Identity for equality, the state's text for printing, {@link Answer} for everything else. */
    record Handler(Object state, Answer answer) implements java.lang.reflect.InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            return switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                case "toString" -> String.valueOf(state);
                default -> answer.answer(method, args == null ? new Object[0] : args);
            };
        }
    }

    private static <T> T proxy(Class<T> type, Answer answer) {
        return proxy(type, null, answer);
    }

    private static <T> T proxy(Class<T> type, Object state, Answer answer) {
        return type.cast(Proxy.newProxyInstance(CriteriaStandIn.class.getClassLoader(), new Class<?>[] {type},
                new Handler(state, answer)));
    }

    private static Attribute<?, ?> proxy(Class<?>[] types, Answer answer) {
        return (Attribute<?, ?>) Proxy.newProxyInstance(CriteriaStandIn.class.getClassLoader(), types,
                new Handler(null, answer));
    }

    private static Object unsupported(Method method) {
        throw new UnsupportedOperationException("The stand-in does not answer " + method);
    }
}
