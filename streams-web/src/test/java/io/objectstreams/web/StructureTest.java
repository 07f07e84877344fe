package io.objectstreams.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the shape the code was split into (docs/testing.md): no class of streams-web or streams-ejb over 300 lines,
 * and no two classes that call each other; and, in those and streams-api, no line over 120 characters, no fully
 * qualified name in code where an import would do, and a Javadoc sentence saying its job before every class. Calls
 * are read from the compiled bytecode with {@code javap}: every invoke instruction, with nested classes and lambdas
 * counted as their top-level class.
 */
class StructureTest {

    private static final List<Path> MODULES = List.of(Path.of("."), Path.of("../streams-ejb"));
    private static final Pattern CLASS = Pattern.compile("^(?:(?:public|protected|private|final|abstract|static|sealed"
            + "|non-sealed) )*(?:class|interface|enum|record|@interface) ([\\w.$]+)");
    private static final Pattern LINE = Pattern.compile("^\\s+line (\\d+): \\d+");
    private static final Pattern CALL = Pattern.compile("invoke\\w+.*// (?:Interface)?Method ([\\w/$]+)\\.");
    private static final List<Path> SOURCES = List.of(Path.of("src/main/java"), Path.of("../streams-ejb/src/main/java"),
            Path.of("../streams-api/src/main/java"));
    /** A qualified class name: lower-case package segments, then a capitalised simple name. */
    private static final Pattern QUALIFIED = Pattern.compile(
            "(?<![\\w.])((?:java|javax|jakarta|io|org|com)(?:\\.[a-z][a-z0-9_]*)+)\\.([A-Z]\\w*)");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+)\\.(\\w+);", Pattern.MULTILINE);
    private static final Pattern TYPE = Pattern.compile("^(?:@\\w+(?:\\([^)]*\\))?\\s+)*(?:(?:public|protected|private|final"
            + "|abstract|static|sealed|non-sealed) )*(?:class|interface|enum|record|@interface) \\w+", Pattern.MULTILINE);

    @Test
    void noMainClassIsOver300Lines() {
        List<String> tooLong = new ArrayList<>();
        for (Path module : MODULES) {
            for (Path source : files(module.resolve("src/main/java"), ".java")) {
                long lines = lines(source);
                if (lines > 300) {
                    tooLong.add(source + " (" + lines + " lines)");
                }
            }
        }
        assertThat(tooLong).isEmpty();
    }

    /**
     * The transports read streams-ejb only through its {@code feed} package (what a transport may read, its settings
     * and the two interfaces it calls back through); everything else there is that module's own.
     */
    @Test
    void streamsWebReadsStreamsEjbOnlyThroughTheFeed() {
        Set<String> ejbPackages = new TreeSet<>();
        Path ejb = Path.of("../streams-ejb/src/main/java");
        files(ejb, ".java").forEach(source -> ejbPackages.add(ejb.relativize(source.getParent()).toString()
                .replace('/', '.')));
        assertThat(ejbPackages).contains("io.objectstreams.feed", "io.objectstreams.internal.trigger");
        List<String> reached = new ArrayList<>();
        for (Path source : files(Path.of("src/main/java"), ".java")) {
            Matcher imports = IMPORT.matcher(read(source));
            while (imports.find()) {
                String imported = imports.group(1);
                String pkg = Character.isUpperCase(imported.charAt(imported.lastIndexOf('.') + 1))
                        ? imported.substring(0, imported.lastIndexOf('.')) : imported; // a static import's class
                if (ejbPackages.contains(pkg) && !pkg.equals("io.objectstreams.feed")) {
                    reached.add(source + " imports " + imported + "." + imports.group(2));
                }
            }
        }
        assertThat(reached).isEmpty();
    }

    @Test
    void noMainLineIsOver120Characters() {
        List<String> tooWide = new ArrayList<>();
        for (Path source : mainSources()) {
            List<String> lines = readLines(source);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).length() > 120) {
                    tooWide.add(source + ":" + (i + 1) + " (" + lines.get(i).length() + " characters)");
                }
            }
        }
        assertThat(tooWide).isEmpty();
    }

    /**
     * A qualified name in code (comments and strings aside) is kept only where its simple name would clash: with an
     * import, a class of the same package, or a type the file declares.
     */
    @Test
    void codeNamesClassesByImportWhereAnImportWouldDo() {
        List<String> qualified = new ArrayList<>();
        for (Path source : mainSources()) {
            String text = read(source);
            Set<String> taken = new HashSet<>();
            Matcher imports = IMPORT.matcher(text);
            while (imports.find()) {
                taken.add(imports.group(2));
            }
            for (Path sibling : files(source.getParent(), ".java")) {
                if (sibling.getParent().equals(source.getParent())) {
                    taken.add(sibling.getFileName().toString().replace(".java", ""));
                }
            }
            Matcher declared = Pattern.compile("\\b(?:class|interface|enum|record) (\\w+)").matcher(text);
            while (declared.find()) {
                taken.add(declared.group(1));
            }
            String[] lines = code(text).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].startsWith("import ") || lines[i].startsWith("package ")) {
                    continue;
                }
                Matcher name = QUALIFIED.matcher(lines[i]);
                while (name.find()) {
                    if (!taken.contains(name.group(2))) {
                        qualified.add(source + ":" + (i + 1) + " " + name.group(1) + "." + name.group(2));
                    }
                }
            }
        }
        assertThat(qualified).isEmpty();
    }

    @Test
    void everyClassOpensWithASentenceSayingItsJob() {
        List<String> unsaid = new ArrayList<>();
        for (Path source : mainSources()) {
            if (source.getFileName().toString().equals("package-info.java")) {
                continue;
            }
            String text = read(source);
            Matcher type = TYPE.matcher(text);
            if (!type.find()) {
                unsaid.add(source + " (no type declaration found)");
                continue;
            }
            String before = text.substring(0, type.start()).stripTrailing();
            int open = before.lastIndexOf("/**");
            String doc = before.endsWith("*/") && open >= 0 ? before.substring(open + 3, before.length() - 2) : "";
            String words = doc.replaceAll("(?m)^\\s*\\*", " ").replaceAll("\\s+", " ").trim();
            if (!words.matches("[A-Z{<].*?[.:]( .*)?")) {
                unsaid.add(source + " (" + (words.isEmpty() ? "no Javadoc" : "\"" + words + "\"") + ")");
            }
        }
        assertThat(unsaid).isEmpty();
    }

    /**
     * No method of the main code spans more than 50 lines, read from the compiled classes' line tables: from its first
     * line of code to its last (a lambda's body is a method of its own).
     */
    @Test
    void noMainMethodIsOver50Lines() {
        List<Path> classes = new ArrayList<>();
        for (Path module : MODULES) {
            classes.addAll(files(module.resolve("target/classes"), ".class"));
        }
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        StringWriter out = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-l", "-p"));
        classes.forEach(c -> args.add(c.toString()));
        assertThat(javap.run(new PrintWriter(out), new PrintWriter(new StringWriter()), args.toArray(String[]::new)))
                .as("javap").isZero();
        List<String> tooLong = new ArrayList<>();
        String type = null;
        String method = null;
        int first = Integer.MAX_VALUE;
        int last = 0;
        for (String line : out.toString().split("\n")) {
            Matcher header = CLASS.matcher(line);
            Matcher entry = LINE.matcher(line);
            if (header.find()) {
                type = header.group(1);
            } else if (entry.find()) {
                first = Math.min(first, Integer.parseInt(entry.group(1)));
                last = Math.max(last, Integer.parseInt(entry.group(1)));
            } else if (line.startsWith("  ") && !line.startsWith("   ") && line.contains("(")) {
                method = type + "." + line.trim();
                first = Integer.MAX_VALUE;
                last = 0;
            } else if (line.trim().isEmpty() && method != null && last > 0) {
                if (last - first + 1 > 50 && !method.contains("lambda$")) {
                    tooLong.add(method + " (" + (last - first + 1) + " lines)");
                }
                method = null;
                last = 0;
            }
        }
        assertThat(tooLong).isEmpty();
    }

    @Test
    void noTwoClassesCallEachOther() {
        List<Path> classes = new ArrayList<>();
        for (Path module : MODULES) {
            classes.addAll(files(module.resolve("target/classes"), ".class"));
        }
        assertThat(classes).as("compiled classes of both modules").hasSizeGreaterThan(100);
        Map<String, Set<String>> calls = calls(classes);
        Set<String> mutual = new TreeSet<>();
        calls.forEach((caller, callees) -> callees.stream()
                .filter(callee -> calls.getOrDefault(callee, Set.of()).contains(caller))
                .forEach(callee -> mutual.add(caller.compareTo(callee) < 0 ? caller + " <-> " + callee
                        : callee + " <-> " + caller)));
        assertThat(calls.values().stream().mapToInt(Set::size).sum()).as("calls found").isGreaterThan(100);
        assertThat(mutual).isEmpty();
    }

    /** Top-level class to the top-level classes of ours whose methods it invokes. */
    private static Map<String, Set<String>> calls(List<Path> classes) {
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        StringWriter out = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-c", "-p"));
        classes.forEach(c -> args.add(c.toString()));
        int status = javap.run(new PrintWriter(out), new PrintWriter(new StringWriter()), args.toArray(String[]::new));
        assertThat(status).as("javap").isZero();
        Map<String, Set<String>> calls = new HashMap<>();
        String current = null;
        for (String line : out.toString().split("\n")) {
            Matcher header = CLASS.matcher(line);
            if (header.find()) {
                current = topLevel(header.group(1));
                continue;
            }
            Matcher call = CALL.matcher(line);
            if (current != null && call.find()) {
                String callee = topLevel(call.group(1).replace('/', '.'));
                if (callee.startsWith("io.objectstreams.") && !callee.equals(current)) {
                    calls.computeIfAbsent(current, k -> new HashSet<>()).add(callee);
                }
            }
        }
        return calls;
    }

    private static List<Path> mainSources() {
        List<Path> sources = new ArrayList<>();
        SOURCES.forEach(root -> sources.addAll(files(root, ".java")));
        assertThat(sources).as("main sources of streams-web, streams-ejb and streams-api").hasSizeGreaterThan(100);
        return sources;
    }

    /** The text with comments and the contents of string and character literals blanked, lines kept. */
    static String code(String text) {
        StringBuilder code = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (text.startsWith("//", i)) {
                while (i < text.length() && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? text.length() : end + 2;
                text.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> code.append('\n'));
                i = end;
            } else if (text.startsWith("\"\"\"", i)) {
                int end = text.indexOf("\"\"\"", i + 3);
                end = end < 0 ? text.length() : end + 3;
                text.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> code.append('\n'));
                code.append("\"\"");
                i = end;
            } else if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < text.length() && text.charAt(end) != c) {
                    end += text.charAt(end) == '\\' ? 2 : 1;
                }
                code.append(c).append(c);
                i = end + 1;
            } else {
                code.append(c);
                i++;
            }
        }
        return code.toString();
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> readLines(Path source) {
        try {
            return Files.readAllLines(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String topLevel(String name) {
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    private static List<Path> files(Path root, String suffix) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(suffix)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long lines(Path source) {
        try (Stream<String> lines = Files.lines(source)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
