// zlib, from Debian's zlib1g-dev: gzip and deflate for gRPC message compression.
#include <zlib.h>
