/**
 * Filters of filter subscriptions: what an entity declares with {@code @Filterable}, how a subscriber's filter
 * object is validated against it, and the Criteria predicate it becomes on top of the visibility policy.
 */
package io.objectstreams.web.filter;
