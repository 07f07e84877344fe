/**
 * The health back channel, not for applications: the listener and the subscription engine register their
 * reports in {@link io.objectstreams.internal.health.HealthRegistry} by key, {@link
 * io.objectstreams.internal.health.HealthData} turns reports into the named figures that the MicroProfile Health
 * checks and the admin status both show, and {@link io.objectstreams.internal.health.ListenerHealthChecks} are the
 * checks. It lives in {@code streams-api} only because an EAR's {@code lib/} is the one place WildFly registers
 * health checks from (WFLY-12835). Nothing here decides or queries anything: the listener in {@code streams-ejb}
 * and the engine in {@code streams-web} own their figures, and this package only reads the reports they make.
 */
package io.objectstreams.internal.health;
