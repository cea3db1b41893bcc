// Typed wrappers for libcurl's variadic calls, which Swift cannot call directly
// ("Variadic function is unavailable"). Each is a one-line forward; nothing else lives here.
#ifndef TRIBUTARY_CURL_H
#define TRIBUTARY_CURL_H

#include <curl/curl.h>

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
