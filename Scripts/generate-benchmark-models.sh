#!/usr/bin/env bash
# Regenerates Benchmarks/Sources/SwiftProtobufModels: apple/swift-protobuf's generated types for
# the messages in Protos/, so the benchmarks can measure swift-protobuf on the same schema as our codec.
#
#     Scripts/generate-benchmark-models.sh            # rewrite the generated files
#     Scripts/generate-benchmark-models.sh --check    # exit 1 if the committed files differ
#
# Needs protoc and protoc-gen-swift 1.39.0 (the plugin of apple/swift-protobuf 1.39.0; build it with
# `swift build -c release --product protoc-gen-swift` in a checkout of that tag). Set
# PROTOC_GEN_SWIFT to its path, or put it on PATH.
#
# Only our own files are compiled. google/protobuf/*.proto are left out: swift-protobuf ships the
# well-known types (Google_Protobuf_Timestamp and so on) in its SwiftProtobuf module, and the
# generated code refers to those. protoc still reads them from Protos/ to resolve the imports.
#
# Protos/ spells a proto3 `optional` field as the single-member oneof `_name` that it stands for,
# because protoc-c 1.4.1 refuses the keyword. swift-protobuf would turn that oneof into an enum
# property with the same name as the field's own, which does not compile, so the copy compiled here
# has the `optional` keyword back, as Google publishes the file. The wire and JSON forms are the same.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
plugin="${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift || echo protoc-gen-swift)}"
output="$root/Benchmarks/Sources/SwiftProtobufModels"

check=0
case "${1:-}" in
    "") ;;
    --check) check=1 ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

if [[ ! -x "$plugin" ]]; then
    echo "protoc-gen-swift not found at $plugin; set PROTOC_GEN_SWIFT" >&2
    exit 1
fi
version="$("$plugin" --version)"
if [[ "$version" != *"1.39.0"* ]]; then
    echo "expected protoc-gen-swift 1.39.0, found: $version" >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/protos" "$work/out"
cp -R "$root/Protos/." "$work/protos/"
find "$work/protos" -name '*.proto' -exec perl -0pi -e \
    's/oneof\s+_(\w+)\s*\{\s*([\w.]+)\s+\1\s*=\s*(\d+)\s*;\s*\}/optional $2 $1 = $3;/g' {} +

cd "$work/protos"
protos=()
while IFS= read -r file; do
    protos+=("$file")
done < <(find . -name '*.proto' -not -path './google/protobuf/*' | sed 's|^\./||' | LC_ALL=C sort)

# FileNaming=PathToUnderscores keeps the flat folder SwiftPM wants and names each file after its
# proto path (google_maps_fleetengine_v1_trips.pb.swift).
protoc -I . \
    --plugin=protoc-gen-swift="$plugin" \
    --swift_out="$work/out" \
    --swift_opt=Visibility=Public \
    --swift_opt=FileNaming=PathToUnderscores \
    "${protos[@]}"

if [[ "$check" == 1 ]]; then
    if diff -r "$work/out" "$output" >/dev/null; then
        echo "Benchmarks/Sources/SwiftProtobufModels is current"
        exit 0
    fi
    echo "Benchmarks/Sources/SwiftProtobufModels differs from what $0 makes; run it" >&2
    diff -r "$work/out" "$output" | head -20 >&2 || true
    exit 1
fi

mkdir -p "$output"
find "$output" -name '*.pb.swift' -delete
cp "$work"/out/*.pb.swift "$output"/
echo "wrote ${#protos[@]} files into Benchmarks/Sources/SwiftProtobufModels"
