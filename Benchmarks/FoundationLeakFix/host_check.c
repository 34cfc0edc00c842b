// bmlt-bench's soak only: FoundationNetworking's URL host check with its leak fixed, preloaded into a soak child
// (LD_PRELOAD) to tell BMLTKit's memory from FoundationNetworking's. Never linked into BMLTKit.
//
// Swift 6.3.x's FoundationNetworking checks every request URL's host with libcurl's URL parser
// (`CFURLSessionCurlHostIsEqual`, called through the PLT from `_EasyHandle.set(url:)`) and releases the parser with
// `curl_free` instead of `curl_url_cleanup`, so the parsed parts of every request URL stay allocated. The check was
// corrected on swift-corelibs-foundation's main branch (commit c8c3420, #5498, July 2026). This file is our own
// implementation of the same check with the parser released; bmlt-bench compiles it with the system C compiler.
#include <stdbool.h>
#include <string.h>

typedef struct Curl_URL CURLU;
extern CURLU *curl_url(void);
extern void curl_url_cleanup(CURLU *handle);
extern int curl_url_set(CURLU *handle, int part, const char *content, unsigned int flags);
extern int curl_url_get(CURLU *handle, int part, char **content, unsigned int flags);
extern void curl_free(void *pointer);

enum { PART_URL = 0, PART_HOST = 5 };   // CURLUPART_URL, CURLUPART_HOST

bool CFURLSessionCurlHostIsEqual(const char *url, const char *expectedHost) {
    bool equal = false;
    CURLU *handle = curl_url();
    if (handle == NULL) return false;
    if (curl_url_set(handle, PART_URL, url, 0) == 0) {
        char *host = NULL;
        if (curl_url_get(handle, PART_HOST, &host, 0) == 0) {
            // libcurl keeps an IPv6 literal's brackets; URL.host does not.
            const char *start = host;
            size_t length = strlen(host);
            if (length >= 2 && start[0] == '[' && start[length - 1] == ']') {
                start += 1;
                length -= 2;
            }
            equal = length == strlen(expectedHost) && strncmp(start, expectedHost, length) == 0;
            curl_free(host);
        }
    }
    curl_url_cleanup(handle);
    return equal;
}
