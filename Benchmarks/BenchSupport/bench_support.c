#include "bench_support.h"

#include <stdlib.h>   // glibc's features.h, which defines __GLIBC__ and __GLIBC_MINOR__
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
#define BENCH_HAS_MALLINFO2 1
#endif

size_t bench_malloc_in_use(void) {
#if defined(BENCH_HAS_MALLINFO2)
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#else
    return 0;
#endif
}
