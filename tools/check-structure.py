#!/usr/bin/env python3
"""Checks issue 25's two structural rules on streams-web and streams-ejb (run after `mvn compile`):
no main class over 300 lines, and no two classes that call each other (read from the bytecode with javap:
every invoke instruction, nested classes and lambdas counted as their top-level class)."""
import glob, os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
modules = ["streams-web", "streams-ejb"]
failed = False
for module in modules:
    for source in glob.glob(f"{root}/{module}/src/main/java/**/*.java", recursive=True):
        lines = sum(1 for _ in open(source))
        if lines > 300:
            print(f"over 300 lines: {os.path.relpath(source, root)} ({lines})")
            failed = True

classes = [c for m in modules for c in glob.glob(f"{root}/{m}/target/classes/**/*.class", recursive=True)]
if not classes:
    sys.exit("no classes: run mvn compile first")
out = subprocess.run(["javap", "-c", "-p"] + classes, capture_output=True, text=True, check=True).stdout
calls, current = {}, None
for line in out.splitlines():
    header = re.match(r"^(?:public |protected |private |final |abstract |static |sealed |non-sealed )*"
                      r"(?:class|interface|enum|record|@interface) ([\w.$]+)", line)
    if header:
        current = header.group(1).split("$")[0]
        continue
    call = re.search(r"invoke\w+.*// (?:Interface)?Method ([\w/$]+)\.", line)
    if current and call:
        target = call.group(1).replace("/", ".").split("$")[0]
        if target.startswith("io.objectstreams") and target != current:
            calls.setdefault(current, set()).add(target)
pairs = sorted({tuple(sorted((a, b))) for a, targets in calls.items() for b in targets if a in calls.get(b, ())})
for a, b in pairs:
    print(f"call each other: {a} <-> {b}")
    failed = True
print(f"{len(classes)} class files, {sum(len(t) for t in calls.values())} caller->callee pairs checked")
sys.exit(1 if failed else 0)
