#include "CTributaryCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libcurl's functions, looked up once by `load`.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

#define LOOK_UP(field, name)                                                                      \
    if ((*(void **)&api.field = dlsym(library, name)) == NULL) {                                 \
        snprintf(load_error, sizeof load_error, "libcurl has no %s", name);                      \
        return;                                                                                   \
    }

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load libcurl: %s", reason ? reason : "unknown error");
        return;
    }
    LOOK_UP(global_init, "curl_global_init")
    LOOK_UP(easy_init, "curl_easy_init")
    LOOK_UP(easy_cleanup, "curl_easy_cleanup")
    LOOK_UP(easy_strerror, "curl_easy_strerror")
    LOOK_UP(easy_setopt, "curl_easy_setopt")
    LOOK_UP(easy_getinfo, "curl_easy_getinfo")
    LOOK_UP(slist_append, "curl_slist_append")
    LOOK_UP(slist_free_all, "curl_slist_free_all")
    LOOK_UP(multi_init, "curl_multi_init")
    LOOK_UP(multi_cleanup, "curl_multi_cleanup")
    LOOK_UP(multi_add_handle, "curl_multi_add_handle")
    LOOK_UP(multi_remove_handle, "curl_multi_remove_handle")
    LOOK_UP(multi_perform, "curl_multi_perform")
    LOOK_UP(multi_poll, "curl_multi_poll")
    LOOK_UP(multi_wakeup, "curl_multi_wakeup")
    LOOK_UP(multi_setopt, "curl_multi_setopt")
    LOOK_UP(multi_info_read, "curl_multi_info_read")
    loaded = 1;
}

static int ready(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *tributary_curl_load_error(void) { return ready() ? NULL : load_error; }

CURLcode tributary_curl_global_init(long flags) { return ready() ? api.global_init(flags) : CURLE_FAILED_INIT; }

// Handles exist only once libcurl is loaded, so the functions taking one need not check.
CURL *tributary_curl_easy_init(void) { return ready() ? api.easy_init() : NULL; }
void tributary_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }

const char *tributary_curl_easy_strerror(CURLcode code) {
    return ready() ? api.easy_strerror(code) : load_error;
}

struct curl_slist *tributary_curl_slist_append(struct curl_slist *list, const char *string) {
    return ready() ? api.slist_append(list, string) : NULL;
}

void tributary_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }
CURLM *tributary_curl_multi_init(void) { return ready() ? api.multi_init() : NULL; }
CURLMcode tributary_curl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode tributary_curl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode tributary_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode tributary_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }

CURLMcode tributary_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready_count) {
    return api.multi_poll(multi, extra, count, timeout, ready_count);
}

CURLMcode tributary_curl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
CURLMsg *tributary_curl_multi_info_read(CURLM *multi, int *queued) { return api.multi_info_read(multi, queued); }

// The variadic calls, one typed wrapper per argument type (Swift cannot call variadic C).

CURLcode tributary_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode tributary_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode tributary_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode tributary_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode tributary_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode tributary_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return api.easy_setopt(handle, option, callback);
}

CURLcode tributary_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return api.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode tributary_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode tributary_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode tributary_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode tributary_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode tributary_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return api.easy_getinfo(handle, info, value);
}

CURLMcode tributary_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return api.multi_setopt(multi, option, value);
}
