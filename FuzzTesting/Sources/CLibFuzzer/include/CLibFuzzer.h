// libFuzzer's entry for programs that have their own main (see libFuzzer's documentation,
// "Using libFuzzer as a library"). SwiftPM links an executable with `main` aliased to
// `<Target>_main`, which would shadow libFuzzer's own main, so the target calls this instead.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
