package io.objectstreams.web.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** How {@link KeyRows} reads a UUID key's column: as a UUID's text, and never silently otherwise. */
class KeyRowsTest {

    @Test
    void aUuidKeyColumnThatHoldsNoUuidMakesItsRowVisibleByNothingAndIsLoggedOncePerModel() {
        List<LogRecord> logged = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(KeyRows.class.getName());
        log.addHandler(handler);
        try {
            assertThat(KeyRows.uuidText(" 6F9619FF-8B86-D011-B42D-00C04FC964FF ", "test.ModelA"))
                    .isEqualTo("6f9619ff-8b86-d011-b42d-00c04fc964ff");
            assertThat(KeyRows.uuidText(null, "test.ModelA")).isNull();
            assertThat(logged).isEmpty();

            assertThat(KeyRows.uuidText("0x6F9619FF8B86D011", "test.ModelA")).isNull();
            assertThat(KeyRows.uuidText("another", "test.ModelA")).isNull();
            assertThat(KeyRows.uuidText("0x00", "test.ModelB")).isNull();
            assertThat(logged).hasSize(2);
            assertThat(logged.get(0).getMessage()).contains("test.ModelA").contains("UUID")
                    .doesNotContain("0x6F9619FF8B86D011");
            assertThat(logged.get(1).getMessage()).contains("test.ModelB");
        } finally {
            log.removeHandler(handler);
        }
    }
}
