// The protobuf-c runtime, from Debian's libprotobuf-c-dev.
#include <protobuf-c/protobuf-c.h>
