/**
 * How the engine reads what a {@link io.objectstreams.KeyedVisibilityPolicy} names, not for applications: its key
 * expressions with every to-one link left-joined ({@link io.objectstreams.internal.visibility.KeyPaths}), so that
 * {@link io.objectstreams.VisibilityKeys#toPredicate} in {@code streams-api} and the key rows the engine reads in
 * {@code streams-web} decide alike. Nothing here runs a query or holds state: it only reshapes Criteria paths.
 */
package io.objectstreams.internal.visibility;
