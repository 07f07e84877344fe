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
 * and no two classes that call each other. Calls are read from the compiled bytecode with {@code javap}: every
 * invoke instruction, with nested classes and lambdas counted as their top-level class.
 */
class StructureTest {

    private static final List<Path> MODULES = List.of(Path.of("."), Path.of("../streams-ejb"));
    private static final Pattern CLASS = Pattern.compile("^(?:(?:public|protected|private|final|abstract|static|sealed"
            + "|non-sealed) )*(?:class|interface|enum|record|@interface) ([\\w.$]+)");
    private static final Pattern CALL = Pattern.compile("invoke\\w+.*// (?:Interface)?Method ([\\w/$]+)\\.");

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
