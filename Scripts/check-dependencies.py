#!/usr/bin/env python3
"""Checks that every target declares what it imports, and that the products which promise it build
no grpc-swift-2.

    Scripts/check-dependencies.py

Reads the manifest with `swift package dump-package` (no build), then:

1. each module a target's Swift files import (`import X`, `public import X`, `@testable import X`)
   is the target's own dependency (a target of the package or a product of a package dependency),
   or a module of the toolchain (Foundation, Dispatch, Synchronization, Testing, the C library);
2. no library product but FleetEngineGRPCCore and FleetEngineEmulator, nor the fleettrips
   executable, has grpc-swift-2 or grpc-swift-nio-transport anywhere among its targets'
   dependencies, transitively (FleetEngineJournal and FleetTripsInput, products for FuzzTesting,
   must not: the fuzz build stays small).

Exits 1 with one line per fault.
"""

import json
import os
import re
import subprocess
import sys

GRPC_PACKAGES = {"grpc-swift-2", "grpc-swift-nio-transport"}
MAY_BUILD_GRPC = {"FleetEngineGRPCCore", "FleetEngineEmulator", "fleettrips"}
TOOLCHAIN_MODULES = {
    "Foundation", "FoundationEssentials", "Dispatch", "Synchronization", "Testing", "XCTest",
    "Glibc", "Musl", "Darwin", "Android", "WinSDK", "_Concurrency", "Swift",
}
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(\w+)",
    re.MULTILINE,
)
# `#if canImport(Glibc)` blocks name platform modules that are not declared anywhere.
CAN_IMPORT = re.compile(r"canImport\((\w+)\)")


def target_path(target):
    if target.get("path"):
        return target["path"]
    folder = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(folder, target["name"])


def imported_modules(path):
    modules = set()
    for root, _, files in os.walk(path):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(root, name), encoding="utf-8") as file:
                    text = file.read()
                guarded = set(CAN_IMPORT.findall(text))
                modules |= {module for module in IMPORT.findall(text) if module not in guarded}
    return modules


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    os.chdir(root)
    manifest = json.loads(
        subprocess.run(
            ["swift", "package", "dump-package"], check=True, capture_output=True, text=True
        ).stdout
    )
    targets = {target["name"]: target for target in manifest["targets"]}
    faults = []

    def dependencies(target):
        """(own target names, {(product, package)}) that a target declares."""
        own, products = set(), set()
        for dependency in target["dependencies"]:
            if "byName" in dependency:
                own.add(dependency["byName"][0])
            elif "target" in dependency:
                own.add(dependency["target"][0])
            elif "product" in dependency:
                products.add((dependency["product"][0], dependency["product"][1]))
        return own, products

    for name, target in sorted(targets.items()):
        if target["type"] in ("system", "binary", "plugin"):
            continue
        own, products = dependencies(target)
        declared = own | {product for product, _ in products} | {name}
        for module in sorted(imported_modules(target_path(target)) - declared - TOOLCHAIN_MODULES):
            faults.append(f"{name} imports {module} but does not declare it in Package.swift")

    def packages_reached(name, seen):
        if name in seen:
            return set()
        seen.add(name)
        own, products = dependencies(targets[name])
        reached = {package for _, package in products}
        for dependency in own:
            reached |= packages_reached(dependency, seen)
        return reached

    for product in manifest["products"]:
        if product["name"] in MAY_BUILD_GRPC:
            continue
        reached = set()
        for target in product["targets"]:
            reached |= packages_reached(target, set())
        for package in sorted(reached & GRPC_PACKAGES):
            faults.append(f"product {product['name']} builds {package}")

    for fault in faults:
        print(f"check-dependencies: {fault}", file=sys.stderr)
    if faults:
        return 1
    print(f"check-dependencies: {len(targets)} targets declare what they import; "
          f"{len(manifest['products']) - len(MAY_BUILD_GRPC)} products build no grpc-swift-2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
