#!/usr/bin/env python3
"""Regenerates every file made from Protos/: the protoc-c output and the Swift codec types.

    python3 Scripts/generate-code.py            # rewrite the generated files
    python3 Scripts/generate-code.py --check    # exit 1 if the committed files differ from what this makes

Steps:
1. protoc compiles Protos/ into a descriptor set (with comments, for the Swift doc comments).
2. The descriptor set is adjusted for protoc-c, so Protos/ stays the published schema:
   - `(pb_c_field).string_as_bytes` on every string field (protobuf-c otherwise treats strings as
     C strings and cuts them at the first NUL byte; the Swift side checks UTF-8 itself);
   - `(pb_c_file).gen_pack_helpers` (pack/unpack functions for nested messages too);
   - the files are rendered as proto2, repeated scalars marked packed (proto3's default), so every
     singular scalar gets a `has_` flag. protobuf-c's own proto3 rule skips a double or float that
     compares equal to 0, which drops -0.0; Google's encoders write it (its bits are not zero). With
     the flag, the Swift side decides presence exactly as Google's encoders do. The wire format of
     both renderings is the same.
   - singular message and string fields (outside oneofs; strings outside map entries too) are
     rendered repeated, so that every occurrence reaches Swift (see ARCHITECTURE.md, The codec);
     LatLng fields are rendered as bytes.
3. protoc-c writes the C into Sources/CFleetEngineProtos (headers under include/, code under generated/).
4. swift_codegen.py writes Sources/FleetEngineCodec/Generated/.

Needs protoc, protoc-c (Debian: protobuf-compiler, protobuf-c-compiler) and the Python `protobuf` package.
"""

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import swift_codegen  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROTOS = os.path.join(ROOT, "Protos")
C_TARGET = os.path.join("Sources", "CFleetEngineProtos")
SWIFT_TARGET = os.path.join("Sources", "FleetEngineCodec", "Generated")

# FieldOptions / FileOptions extension 1019 of protobuf-c.proto, as raw wire bytes:
# tag (1019 << 3 | 2) = 0xda 0x3f, length 2, then the inner option's tag and `true`.
STRING_AS_BYTES = b"\xda\x3f\x02\x08\x01"  # ProtobufCFieldOptions.string_as_bytes (field 1)
GEN_PACK_HELPERS = b"\xda\x3f\x02\x10\x01"  # ProtobufCFileOptions.gen_pack_helpers (field 2)


def proto_files():
    found = []
    for folder, _, names in os.walk(PROTOS):
        for name in names:
            if name.endswith(".proto"):
                found.append(os.path.relpath(os.path.join(folder, name), PROTOS))
    return sorted(found)


def compile_descriptors(work):
    out = os.path.join(work, "protos.pb")
    subprocess.run(
        ["protoc", "-I", PROTOS, "--include_imports", "--include_source_info", "--descriptor_set_out=" + out]
        + proto_files(),
        check=True,
    )
    fds = descriptor_pb2.FileDescriptorSet()
    with open(out, "rb") as f:
        fds.ParseFromString(f.read())
    return fds


def with_protobuf_c_options(fds):
    marked = descriptor_pb2.FileDescriptorSet()
    marked.CopyFrom(fds)

    packable = {
        descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
        descriptor_pb2.FieldDescriptorProto.TYPE_BYTES,
        descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE,
        descriptor_pb2.FieldDescriptorProto.TYPE_GROUP,
    }

    def mark(message):
        for field in message.field:
            if field.type == descriptor_pb2.FieldDescriptorProto.TYPE_STRING:
                field.options.MergeFromString(STRING_AS_BYTES)
            if field.label == descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED and field.type not in packable:
                field.options.packed = True
            if field.type == descriptor_pb2.FieldDescriptorProto.TYPE_BOOL:
                field.type = descriptor_pb2.FieldDescriptorProto.TYPE_UINT64
            if field.type_name == ".google.type.LatLng" and not field.HasField("oneof_index"):
                field.type = descriptor_pb2.FieldDescriptorProto.TYPE_BYTES
                field.ClearField("type_name")
                field.label = descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED
            singular = field.label == descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL
            if singular and field.type == descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE and not field.HasField(
                "oneof_index"
            ):
                field.label = descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED
            # A singular string sent twice: protobuf-c keeps the last and frees the first unseen, so
            # invalid UTF-8 in it would pass. Repeated, every occurrence reaches Swift (map entries'
            # keys and values stay singular: the map code reads them as such).
            if (
                singular
                and field.type == descriptor_pb2.FieldDescriptorProto.TYPE_STRING
                and not field.HasField("oneof_index")
                and not message.options.map_entry
            ):
                field.label = descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED
        for nested in message.nested_type:
            mark(nested)

    for file in marked.file:
        file.syntax = "proto2"
        file.options.MergeFromString(GEN_PACK_HELPERS)
        file.ClearField("source_code_info")
        for message in file.message_type:
            mark(message)
    return marked


def generate_c(fds, work, destination):
    descriptors = os.path.join(work, "protobuf-c.pb")
    with open(descriptors, "wb") as f:
        f.write(with_protobuf_c_options(fds).SerializeToString())
    raw = os.path.join(work, "c")
    os.makedirs(raw)
    subprocess.run(
        ["protoc", "--descriptor_set_in=" + descriptors, "--c_out=" + raw] + [f.name for f in fds.file],
        check=True,
    )
    headers = []
    for folder, _, names in os.walk(raw):
        for name in sorted(names):
            source = os.path.join(folder, name)
            relative = os.path.relpath(source, raw)
            if name.endswith(".h"):
                target = os.path.join(destination, "include", relative)
                headers.append(relative)
            else:
                target = os.path.join(destination, "generated", relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(source, target)
    umbrella = ["// Generated by Scripts/generate-code.py. Do not edit.", "// Every protoc-c header, and the arena.", ""]
    umbrella += ['#include "%s"' % h for h in sorted(headers)]
    umbrella += ['#include "CFleetEngineArena.h"', ""]
    with open(os.path.join(destination, "include", "CFleetEngineProtos.h"), "w") as f:
        f.write("\n".join(umbrella))
    # SwiftPM refuses an umbrella header beside folders, so the module map is explicit.
    with open(os.path.join(destination, "include", "module.modulemap"), "w") as f:
        f.write('module CFleetEngineProtos {\n    header "CFleetEngineProtos.h"\n    export *\n}\n')
    return sorted(headers)


def generate(root_out):
    with tempfile.TemporaryDirectory() as work:
        fds = compile_descriptors(work)
        c_out = os.path.join(root_out, C_TARGET)
        generate_c(fds, work, c_out)
        swift_out = os.path.join(root_out, SWIFT_TARGET)
        swift_codegen.generate(fds, os.path.join(c_out, "include"), swift_out)
        # The house format applies to generated Swift too, so `swift format lint --strict` passes on it.
        swift_files = sorted(os.path.join(swift_out, name) for name in os.listdir(swift_out))
        subprocess.run(
            ["swift", "format", "format", "--in-place", "--configuration", os.path.join(ROOT, ".swift-format")]
            + swift_files,
            check=True,
        )


def generated_files(root):
    result = set()
    for base in [os.path.join(C_TARGET, "include", "google"), os.path.join(C_TARGET, "generated"), SWIFT_TARGET]:
        for folder, _, names in os.walk(os.path.join(root, base)):
            for name in names:
                result.add(os.path.relpath(os.path.join(folder, name), root))
    result.add(os.path.join(C_TARGET, "include", "CFleetEngineProtos.h"))
    result.add(os.path.join(C_TARGET, "include", "module.modulemap"))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = parser.parse_args()
    if not args.check:
        for base in [os.path.join(C_TARGET, "include", "google"), os.path.join(C_TARGET, "generated"), SWIFT_TARGET]:
            shutil.rmtree(os.path.join(ROOT, base), ignore_errors=True)
        generate(ROOT)
        print("generated %d files" % len(generated_files(ROOT)))
        return 0
    with tempfile.TemporaryDirectory() as fresh:
        # The arena header is hand-written; the umbrella includes it but it is not generated.
        generate(fresh)
        expected, present = generated_files(fresh), generated_files(ROOT)
        problems = ["missing: " + p for p in sorted(expected - present)]
        problems += ["not generated by this script: " + p for p in sorted(present - expected)]
        for path in sorted(expected & present):
            if not filecmp.cmp(os.path.join(fresh, path), os.path.join(ROOT, path), shallow=False):
                problems.append("differs: " + path)
        if problems:
            print("generated code is not current; run python3 Scripts/generate-code.py")
            print("\n".join("  " + p for p in problems))
            return 1
        print("generated code is current (%d files)" % len(expected))
        return 0


if __name__ == "__main__":
    sys.exit(main())
