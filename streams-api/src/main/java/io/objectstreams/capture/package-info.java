/**
 * The capture hooks the container calls: the JPA default entity listener, the {@code @StreamsAction}
 * interceptor and the recorder contract they hand changes to. Application code does not call these types;
 * they must stay free of database access, which belongs to the recorder in {@code streams-ejb}.
 */
package io.objectstreams.capture;
