package io.objectstreams.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/getting-started.md quotes the help desk example: each quoted snippet follows a link to the lines it was taken
 * from ({@code [...](../examples/help-desk/<file>#L<from>-L<to>)}), and must be exactly those lines of that file
 * (indentation and trailing blanks aside). A guide that drifts from the example, or a link that points at other
 * lines, fails here.
 */
class GettingStartedGuideTest {

    private static final Path GUIDE = Path.of("../docs/getting-started.md");
    private static final Pattern QUOTE = Pattern.compile(
            "\\]\\(\\.\\./(examples/help-desk/[^)#]+)#L(\\d+)-L(\\d+)\\)[^\\n]*\\n\\s*\\n```[a-z]*\\n(.*?)\\n```",
            Pattern.DOTALL);
    private static final Pattern LINE_LINK = Pattern.compile("\\]\\(\\.\\./examples/help-desk/[^)#]+#L\\d+-L\\d+\\)");

    /** What each quote is: the file and lines it names, and the text the guide shows. */
    record Quote(String file, int from, int to, String shown) {
    }

    @Test
    void everyQuotedSnippetIsTheExampleLinesItLinksTo() throws IOException {
        String guide = Files.readString(GUIDE);
        List<Quote> quotes = quotes(guide);
        // Every link to lines of the example must be a checked quote: a link whose snippet does not follow it in the
        // form above (link, blank line, fence) would otherwise drop out of the check unnoticed.
        long links = LINE_LINK.matcher(guide).results().count();
        assertEquals(links, quotes.size(), "links to lines of the example that are not followed by their snippet");
        assertTrue(quotes.size() >= 12, () -> "the guide quotes the example at least 12 times; found " + quotes.size());
        List<String> problems = new ArrayList<>();
        for (Quote quote : quotes) {
            Path file = Path.of("..").resolve(quote.file());
            if (!Files.isRegularFile(file)) {
                problems.add(quote.file() + ": no such file in the example");
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            if (quote.to() > lines.size() || quote.from() > quote.to()) {
                problems.add(quote.file() + "#L" + quote.from() + "-L" + quote.to() + ": the file has " + lines.size()
                        + " lines");
                continue;
            }
            String expected = normalized(lines.subList(quote.from() - 1, quote.to()));
            String shown = normalized(List.of(quote.shown().split("\n", -1)));
            if (!expected.equals(shown)) {
                problems.add(quote.file() + "#L" + quote.from() + "-L" + quote.to() + " differs from the guide's snippet"
                        + where(quote.file(), lines, quote.shown()) + "\n--- the file's lines:\n" + expected
                        + "\n--- the guide:\n" + shown);
            }
        }
        assertEquals(List.of(), problems, () -> String.join("\n\n", problems));
    }

    @Test
    void theCheckFailsWhenASnippetDrifts() {
        String guide = "[pom](../examples/help-desk/pom.xml#L2-L3)\n\n```xml\n<a/>\n  <b/>\n```\n";
        List<Quote> quotes = quotes(guide);
        assertEquals(List.of(new Quote("examples/help-desk/pom.xml", 2, 3, "<a/>\n  <b/>")), quotes);
        assertEquals(normalized(List.of("    <a/>", "      <b/>  ")), normalized(List.of("<a/>", "  <b/>")));
        assertTrue(!normalized(List.of("<a/>", "<c/>")).equals(normalized(List.of("<a/>", "  <b/>"))));
    }

    static List<Quote> quotes(String guide) {
        List<Quote> quotes = new ArrayList<>();
        Matcher matcher = QUOTE.matcher(guide);
        while (matcher.find()) {
            quotes.add(new Quote(matcher.group(1), Integer.parseInt(matcher.group(2)), Integer.parseInt(matcher.group(3)),
                    matcher.group(4)));
        }
        return quotes;
    }

    /** The lines without their common indentation or trailing blanks, and without trailing empty lines. */
    static String normalized(List<String> lines) {
        int indent = lines.stream().filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length()).min().orElse(0);
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            out.add(line.isBlank() ? "" : line.substring(indent).stripTrailing());
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return String.join("\n", out);
    }

    /** Where the snippet's first line is in the file now, as a hint for fixing the link. */
    private static String where(String file, List<String> lines, String shown) {
        String first = shown.strip().lines().findFirst().orElse("").strip();
        for (int i = 0; i < lines.size(); i++) {
            if (!first.isEmpty() && lines.get(i).strip().equals(first)) {
                return " (its first line is line " + (i + 1) + " of " + file + ")";
            }
        }
        return " (its first line is nowhere in " + file + ")";
    }
}
