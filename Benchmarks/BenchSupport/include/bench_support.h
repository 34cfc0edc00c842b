// bmlt-bench's C helpers (never linked into BMLTKit).
#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include <stddef.h>

/// The bytes malloc has handed out and not had back (glibc's `mallinfo2`: `uordblks + hblkhd`, every arena), or 0 where
/// there is no such count. Freed chunks that a thread keeps in its cache (tcache) count as handed out.
size_t bench_malloc_in_use(void);

#endif
