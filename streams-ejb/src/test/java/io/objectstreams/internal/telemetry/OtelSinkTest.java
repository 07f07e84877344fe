package io.objectstreams.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import org.junit.jupiter.api.Test;

/** A stored {@code traceparent} becomes a link only when it is one. */
class OtelSinkTest {

    @Test
    void aW3cTraceparentBecomesTheSpanContextItNames() {
        SpanContext context = OtelSink.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

        assertThat(context).isNotNull();
        assertThat(context.getTraceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(context.getSpanId()).isEqualTo("b7ad6b7169203331");
        assertThat(context.isSampled()).isTrue();
        assertThat(context.isRemote()).isTrue();
    }

    @Test
    void anythingElseIsNoLink() {
        assertThat(OtelSink.parse("")).isNull();
        assertThat(OtelSink.parse("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).as("version").isNull();
        assertThat(OtelSink.parse("00-00000000000000000000000000000000-b7ad6b7169203331-01")).as("zero trace").isNull();
        assertThat(OtelSink.parse("00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01")).as("zero span").isNull();
        assertThat(OtelSink.parse("00-0af7651916cd43dd8448eb211c80319c_b7ad6b7169203331-01")).as("separator").isNull();
        assertThat(OtelSink.parse("00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01")).as("upper case").isNull();
        assertThat(OtelSink.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra")).isNull();
        assertThat(OtelSink.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-zz")).as("flags").isNull();
        assertThat(OtelSink.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0G")).as("flags").isNull();
    }
}
