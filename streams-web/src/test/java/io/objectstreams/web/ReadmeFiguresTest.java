package io.objectstreams.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's "How fast" section quotes only figures that docs/benchmarks.md's current tables hold. Each paragraph
 * of the section that quotes a figure (a number with a unit: ms, s, µs, events/s, deliveries/s, rows/s, writes/s, ×,
 * MB, KB, bytes, %) or a date must link to a current table ({@code docs/benchmarks.md#<heading>} under "Current
 * figures"), and each of its figures and dates must appear verbatim in a row of a table it links to. Also: the current
 * tables come first in benchmarks.md, and each of their rows says when, on what code and on what machine it was
 * measured.
 */
class ReadmeFiguresTest {

    private static final Path README = Path.of("../README.md");
    private static final Path BENCHMARKS = Path.of("../docs/benchmarks.md");
    private static final String CURRENT = "## Current figures";

    private static final String NUMBER = "\\d[\\d,]*(?:\\.\\d+)?";
    /** A number or a range of two, then its unit; longer units first so that "writes/s" is not read as "s". */
    static final Pattern FIGURE = Pattern.compile("(?<![\\w.,–-])(" + NUMBER + "(?:–" + NUMBER + ")?)\\s?"
            + "(events/s|deliveries/s|rows/s|writes/s|ms|µs|s|×|MB|KB|bytes|%)(?![\\w/])");
    static final Pattern DATE = Pattern.compile("(?<!\\d)\\d{4}-\\d{2}-\\d{2}(?!\\d)");
    private static final Pattern CITED = Pattern.compile("\\]\\(docs/benchmarks\\.md#([\\w-]+)\\)");
    private static final Pattern COMMIT_OR_SESSION = Pattern.compile("\\b[0-9a-f]{7}\\b|\\bsession\\b");

    @Test
    void everyFigureOfHowFastIsInTheCurrentTableItCites() throws IOException {
        String benchmarks = Files.readString(BENCHMARKS);
        List<String> paragraphs = paragraphs(section(Files.readString(README), "## How fast"));
        assertThat(paragraphs).as("paragraphs of the README's \"How fast\" section").isNotEmpty();
        List<String> wrong = new ArrayList<>();
        int figuresChecked = 0;
        for (int p = 0; p < paragraphs.size(); p++) {
            String paragraph = paragraphs.get(p);
            List<String> quoted = quoted(paragraph);
            if (quoted.isEmpty()) {
                continue;
            }
            Map<String, List<String>> rowsByAnchor = new LinkedHashMap<>();
            Matcher cite = CITED.matcher(paragraph);
            while (cite.find()) {
                rowsByAnchor.put(cite.group(1), currentTableRows(benchmarks, cite.group(1)));
            }
            String where = "README \"How fast\", paragraph " + (p + 1);
            if (rowsByAnchor.isEmpty()) {
                wrong.add(where + " quotes " + quoted + " but links to no current table of docs/benchmarks.md");
                continue;
            }
            rowsByAnchor.forEach((anchor, rows) -> {
                if (rows.isEmpty()) {
                    wrong.add(where + " links to docs/benchmarks.md#" + anchor
                            + ", which is no table under \"" + CURRENT.substring(3) + "\"");
                }
            });
            List<String> rows = rowsByAnchor.values().stream().flatMap(List::stream).toList();
            for (String figure : quoted) {
                figuresChecked++;
                if (rows.stream().noneMatch(row -> contains(row, figure))) {
                    wrong.add(where + " quotes \"" + figure + "\", which no row of the current table it cites ("
                            + String.join(", ", rowsByAnchor.keySet().stream().map(a -> "docs/benchmarks.md#" + a)
                                    .toList()) + ") holds");
                }
            }
        }
        assertThat(figuresChecked).as("figures quoted in the README's \"How fast\" section").isGreaterThan(5);
        assertThat(wrong).as("README figures that docs/benchmarks.md's current tables do not hold").isEmpty();
    }

    @Test
    void theCurrentTablesComeFirstAndEachRowSaysWhenOnWhatCodeAndMachine() throws IOException {
        String benchmarks = Files.readString(BENCHMARKS);
        int firstSection = benchmarks.indexOf("\n## ");
        assertThat(benchmarks.substring(firstSection + 1)).as("the first section of " + BENCHMARKS)
                .startsWith(CURRENT + "\n");
        List<String> incomplete = new ArrayList<>();
        int rows = 0;
        for (String row : tableRows(section(benchmarks, CURRENT))) {
            rows++;
            if (!DATE.matcher(row).find() || !COMMIT_OR_SESSION.matcher(row).find() || !row.contains("2-core")) {
                incomplete.add(row);
            }
        }
        assertThat(rows).as("rows of the current tables").isGreaterThan(30);
        assertThat(incomplete).as("current rows without a date, a commit or session, and the machine").isEmpty();
    }

    @Test
    void aFigureIsReadWithItsUnitAndARangeWhole() {
        assertThat(quoted("a p99 of 33.5 ms, 49,924–50,031 deliveries/s at 75 writes/s, 1.57× (2026-12-03)"))
                .containsExactly("33.5 ms", "49,924–50,031 deliveries/s", "75 writes/s", "1.57×", "2026-12-03");
        assertThat(quoted("5,000 clients, 10,000 distinct viewers, p99")).isEmpty();
        assertThat(contains("| 18.0 s | 8.0 s (8.4 s) |", "8.0 s")).isTrue();
        assertThat(contains("| 18.0 s |", "8.0 s")).isFalse();
        assertThat(contains("| 5.0 s |", "5 s")).isFalse();
    }

    /** The figures and dates of a text, in order, with the whitespace between number and unit as one space. */
    static List<String> quoted(String text) {
        Map<Integer, String> byPosition = new TreeMap<>();
        Matcher figure = FIGURE.matcher(text);
        while (figure.find()) {
            String unit = figure.group(2);
            String space = unit.equals("×") || unit.equals("%") ? "" : " ";
            byPosition.put(figure.start(), figure.group(1) + space + unit);
        }
        Matcher date = DATE.matcher(text);
        while (date.find()) {
            byPosition.put(date.start(), date.group());
        }
        return List.copyOf(byPosition.values());
    }

    /** Whether {@code row} holds {@code figure} whole: not as the tail of a longer number, nor before more unit. */
    static boolean contains(String row, String figure) {
        String flat = row.replaceAll("\\s+", " ");
        return Pattern.compile("(?<![\\d.,–-])" + Pattern.quote(figure) + "(?![\\w/])").matcher(flat).find();
    }

    /** The rows of the tables under the heading of {@code anchor}, if that heading is under "Current figures". */
    private static List<String> currentTableRows(String benchmarks, String anchor) {
        String current = section(benchmarks, CURRENT);
        for (String line : current.split("\n")) {
            if (line.startsWith("### ") && anchor(line.substring(4)).equals(anchor)) {
                return tableRows(section(current, line));
            }
        }
        return List.of();
    }

    /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
    static String anchor(String heading) {
        return heading.strip().toLowerCase().replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    /** The text after {@code heading} up to the next heading of the same or a higher level. */
    private static String section(String text, String heading) {
        int start = text.indexOf(heading + "\n");
        assertThat(start).as("heading \"" + heading + "\"").isNotNegative();
        int level = heading.indexOf(' ');
        String body = text.substring(start + heading.length() + 1);
        Matcher next = Pattern.compile("(?m)^#{1," + level + "} ").matcher(body);
        return next.find() ? body.substring(0, next.start()) : body;
    }

    private static List<String> paragraphs(String text) {
        return List.of(text.strip().split("\n\\s*\n")).stream().map(p -> p.replace('\n', ' ')).toList();
    }

    /** Table rows without the header and its separator. */
    private static List<String> tableRows(String text) {
        List<String> rows = new ArrayList<>();
        boolean header = true;
        for (String line : text.split("\n")) {
            if (!line.startsWith("|")) {
                header = true;
            } else if (line.startsWith("| ---")) {
                header = false;
            } else if (!header) {
                rows.add(line);
            }
        }
        return rows;
    }
}
