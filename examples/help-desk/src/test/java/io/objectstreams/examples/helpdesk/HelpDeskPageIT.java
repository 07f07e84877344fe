package io.objectstreams.examples.helpdesk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.net.URL;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page in a real browser (Debian's headless Chromium): alice signs in, and a ticket created through the REST API
 * and then activity written into it with SQL both reach her table without a reload.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HelpDeskPageIT {

    @Deployment(testable = false)
    static WebArchive helpDesk() {
        return ShrinkWrap.createFromZipFile(WebArchive.class, new File(System.getProperty("helpdesk.war")));
    }

    @ArquillianResource
    URL base;

    @Test
    void aChangeThroughRestAndOneInSqlReachThePage() throws Exception {
        WebDriver browser = browser();
        try {
            browser.get(base.toString());
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
            wait.until(b -> b.findElement(By.id("signin")).isDisplayed());
            browser.findElement(By.name("username")).sendKeys("alice");
            browser.findElement(By.name("password")).sendKeys("alice-pw");
            browser.findElement(By.cssSelector("#signin button")).click();
            wait.until(b -> "true".equals(js(b, "return document.body.dataset.loaded === 'true'"
                    + " && document.getElementById('state').textContent.startsWith('open') ? 'true' : 'false'")));

            String ticket = new Api(base, "alice").createTicket("seen on the page", HelpDeskIT.ACME_SUPPORT);
            wait.until(b -> "0".equals(cell(b, ticket, 5)));
            try (Connection db = HelpDeskDatabase.connect(); PreparedStatement insert = db.prepareStatement(
                    "INSERT INTO hd_ticket_activity (ticket_id, at, kind) VALUES (?::uuid, now(), 'mail')")) {
                insert.setString(1, ticket);
                insert.executeUpdate();
            }
            wait.until(b -> "1".equals(cell(b, ticket, 5)));
            assertEquals("seen on the page", cell(browser, ticket, 0));
        } finally {
            browser.quit();
        }
    }

    /** The text of column {@code column} of the ticket's row, or null while there is no such row. */
    private static String cell(WebDriver browser, String ticket, int column) {
        Object text = js(browser, "const row = document.querySelector('tr[data-id=\"" + ticket + "\"]');"
                + " return row ? row.children[" + column + "].textContent : null");
        return text == null ? null : text.toString();
    }

    private static Object js(WebDriver browser, String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    private static WebDriver browser() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(executable("helpdesk.chromium", "/usr/bin/chromium"));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-dev-shm-usage");
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(executable("helpdesk.chromedriver", "/usr/bin/chromedriver")).usingAnyFreePort().build();
        return new ChromeDriver(driver, options);
    }

    private static File executable(String property, String fallback) {
        File file = new File(System.getProperty(property, fallback));
        if (!file.canExecute()) {
            throw new IllegalStateException(file + " is missing: install Debian's chromium and chromium-driver"
                    + " (Object Streams' .ci/run does), or point -D" + property + " at it");
        }
        return file;
    }
}
