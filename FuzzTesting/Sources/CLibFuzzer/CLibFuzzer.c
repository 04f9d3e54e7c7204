// Declarations only; libFuzzer itself comes from the toolchain with -sanitize=fuzzer.
