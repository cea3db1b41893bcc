// libcurl, loaded on first use, and typed wrappers for its variadic calls.
//
// Tributary does not link libcurl: it and the forty libraries it pulls in (TLS, HTTP/2, LDAP,
// Kerberos, …) cost every process about 10 ms of start-up, which commands that never touch the
// network (`parse` of files, `check`, `status`) need not pay. The first call of any function
// here opens libcurl.so.4; when it cannot be opened, `tributary_curl_load_error` says why and
// the functions fail as libcurl's do (NULL handles, error codes).
#ifndef TRIBUTARY_CURL_H
#define TRIBUTARY_CURL_H

#include <curl/curl.h>

/// Nil when libcurl is loaded (or loads now); otherwise why it could not be.
const char *tributary_curl_load_error(void);

CURLcode tributary_curl_global_init(long flags);
CURL *tributary_curl_easy_init(void);
void tributary_curl_easy_cleanup(CURL *handle);
const char *tributary_curl_easy_strerror(CURLcode code);
struct curl_slist *tributary_curl_slist_append(struct curl_slist *list, const char *string);
void tributary_curl_slist_free_all(struct curl_slist *list);
CURLM *tributary_curl_multi_init(void);
CURLMcode tributary_curl_multi_cleanup(CURLM *multi);
CURLMcode tributary_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode tributary_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode tributary_curl_multi_perform(CURLM *multi, int *running);
CURLMcode tributary_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready_count);
CURLMcode tributary_curl_multi_wakeup(CURLM *multi);
CURLMsg *tributary_curl_multi_info_read(CURLM *multi, int *queued);

CURLcode tributary_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode tributary_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode tributary_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode tributary_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode tributary_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode tributary_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode tributary_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback);
CURLcode tributary_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode tributary_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode tributary_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode tributary_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode tributary_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);
CURLMcode tributary_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

#endif
