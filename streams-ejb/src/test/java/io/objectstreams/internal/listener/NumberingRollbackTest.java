package io.objectstreams.internal.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * The rollback script's text for a schema name: quoted wherever it appears, and refused where quoting cannot make it
 * safe (a comment line and dollar-quoted blocks hold it too). {@code NumberingRollbackIT} runs the script itself.
 */
class NumberingRollbackTest {

    @Test
    void everyNameIsQualifiedByTheQuotedSchema() throws SQLException {
        String script = NumberingRollback.script("Tenant \"B\"");

        assertThat(script).contains("LOCK TABLE \"Tenant \"\"B\"\"\".streams_cursor_state IN ACCESS EXCLUSIVE MODE;")
                .contains("UPDATE \"Tenant \"\"B\"\"\".streams_outbox o SET cursor = c.cursor")
                .contains("to_regclass('\"Tenant \"\"B\"\"\".streams_outbox_claim')")
                .doesNotContain("{schema}").doesNotContain("{claim}").doesNotContain("{sessions}")
                .doesNotContain("{markClass}").doesNotContain("{markObject}");
        assertThat(script).as("this version's session mark, as pg_locks shows it")
                .contains("l.classid = " + 0x0b5e_0007L + " AND l.objid = 7 AND l.objsubid = 1");
    }

    @Test
    void aSchemaNameTheScriptCannotHoldSafelyIsRefused() {
        for (String name : new String[] {"x\nDROP TABLE t; --", "a$$b", "tab\there", "{schema}", "del\u007f"}) {
            assertThatThrownBy(() -> NumberingRollback.script(name)).as(name).isInstanceOf(SQLException.class)
                    .hasMessageContaining("cannot quote safely").hasMessageContaining("docs/operations.md");
        }
    }
}
