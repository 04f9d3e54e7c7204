#!/usr/bin/env python3
"""Finds test closures that Swift 6.3 compiles into another closure's body.

    Scripts/check-test-closures.py [--build-path DIR] [--keep DIR]

Swift 6.3.1 can give a closure written inside a macro's arguments (`#require(xs.first { ... })`,
`#expect(xs.contains { ... })`) and a later closure of the same type in the same enclosing closure
the same symbol. Only one body is emitted, so the later closure silently runs the earlier one's
code: `xs.first { $0 == 3 }` then finds what `{ $0 == 2 }` finds, and a test checks something
other than what it says. This script asks the compiler for each test module's SIL (with the
build's own arguments, from SwiftPM's manifest of the debug build) and reports every closure
function that is referenced both from a macro expansion and from somewhere else, or from two
places in the source. It exits with 1 when it finds one, naming the places; rewrite such a test
so that the closure in the macro's argument is evaluated outside it first:

    let found = xs.first { $0 == 2 }
    let value = try #require(found)

Run it after `swift build --build-tests` (Scripts/test.sh does).
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Arguments of the build that produce outputs this check does not want (with how many values
# follow each).
DROPPED = {
    "-emit-dependencies": 0, "-emit-module": 0, "-incremental": 0, "-c": 0, "-enable-batch-mode": 0,
    "-serialize-diagnostics": 0, "-v": 0, "-emit-module-path": 1, "-output-file-map": 1,
    "-index-store-path": 1, "-emit-objc-header-path": 1, "-emit-module-interface-path": 1,
    "-emit-private-module-interface-path": 1, "-emit-module-source-info-path": 1, "-emit-api-descriptor-path": 1,
}
CLOSURE = re.compile(r"f[Uu]\d*_$")
DEFINITION = re.compile(r"^sil private [^@]*@(\S+) :")
REFERENCE = re.compile(r'function_ref @(\S+) : .*?, loc \*? ?"([^"]+)":(\d+):(\d+)')


def test_module_commands(manifest_path, build_path):
    """(module name, swiftc arguments) of every module whose sources live under Tests/ (besides
    what SwiftPM derives in the build directory, such as a resource bundle accessor)."""
    text = open(manifest_path, encoding="utf-8").read()
    commands = []
    pattern = re.compile(r'^  "C\.([A-Za-z0-9_]+)-[^"]*\.module":\n((?:    .*\n)+)', re.MULTILINE)
    for match in pattern.finditer(text):
        body = match.group(2)
        inputs = re.search(r"^    inputs: (\[.*\])$", body, re.MULTILINE)
        args = re.search(r"^    args: (\[.*\])$", body, re.MULTILINE)
        if not inputs or not args:
            continue
        sources = [path for path in json.loads(inputs.group(1)) if path.endswith(".swift")]
        tests = os.path.join(REPOSITORY, "Tests") + os.sep
        derived = os.path.abspath(build_path) + os.sep
        own = [path for path in sources if not path.startswith(derived)]
        if own and all(path.startswith(tests) for path in own):
            commands.append((match.group(1), json.loads(args.group(1))))
    return commands


def silgen_arguments(args, output):
    kept = []
    index = 0
    while index < len(args):
        argument = args[index]
        if argument in DROPPED:
            index += 1 + DROPPED[argument]
            continue
        if re.fullmatch(r"-j\d+", argument):
            index += 1
            continue
        kept.append(argument)
        index += 1
    return kept + ["-wmo", "-emit-silgen", "-Xllvm", "-sil-print-debuginfo", "-o", output]


def shared_closures(sil_path):
    """Closure functions referenced from more than one place, with the places."""
    defined = set()
    places = collections.defaultdict(set)
    with open(sil_path, encoding="utf-8", errors="replace") as sil:
        lines = sil.read().splitlines()
    for line in lines:
        match = DEFINITION.match(line)
        if match and CLOSURE.search(match.group(1)):
            defined.add(match.group(1))
    for line in lines:
        match = REFERENCE.search(line)
        if match and match.group(1) in defined:
            places[match.group(1)].add((match.group(2), int(match.group(3)), int(match.group(4))))
    found = []
    for name, where in places.items():
        # A closure is referenced where it is written; two different lines (or a macro's buffer
        # and a line outside it) mean two closures share one body.
        origins = {(path, line) for path, line, _ in where}
        if len(origins) > 1:
            found.append((name, sorted(where)))
    return found


def describe(path, line, column):
    """A place for people: a file's line, or the source line of the macro whose expansion it is."""
    if os.path.isabs(path):
        return f"{os.path.relpath(path, REPOSITORY)}:{line}:{column}"
    # A freestanding macro's buffer is named after where the macro was written: `MX<line>_<column>_`,
    # both counted from zero.
    written = re.search(r"MX(\d+)_(\d+)_", path)
    if written:
        return f"in the expansion of the macro written at line {int(written.group(1)) + 1}, column " \
            f"{int(written.group(2)) + 1}"
    return f"{path}:{line}:{column}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-path", default=os.path.join(REPOSITORY, ".build"))
    parser.add_argument("--keep", help="write the SIL files here instead of a temporary directory")
    options = parser.parse_args()
    manifest = os.path.join(options.build_path, "debug.yaml")
    if not os.path.exists(manifest):
        sys.exit(f"{manifest} does not exist: run `swift build --build-tests` first")
    commands = test_module_commands(manifest, options.build_path)
    if not commands:
        sys.exit(f"no test modules found in {manifest}")
    with tempfile.TemporaryDirectory() as scratch:
        directory = options.keep or scratch
        os.makedirs(directory, exist_ok=True)

        def silgen(command):
            module, args = command
            output = os.path.join(directory, module + ".sil")
            result = subprocess.run(
                silgen_arguments(args, output), cwd=REPOSITORY, capture_output=True, text=True)
            return module, output, result

        problems = 0
        with ThreadPoolExecutor(max_workers=2) as pool:
            for module, output, result in pool.map(silgen, commands):
                if result.returncode != 0:
                    sys.exit(f"{module}: the compiler could not emit SIL:\n{result.stderr[-2000:]}")
                for name, where in shared_closures(output):
                    problems += 1
                    print(f"{module}: one closure body serves several closures ({name}):")
                    for path, line, column in where:
                        print(f"    {describe(path, line, column)}")
        names = ", ".join(module for module, _ in commands)
        print(f"{len(commands)} test modules checked ({names}): {problems} shared closure bodies")
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
