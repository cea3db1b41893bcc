// Debian's libxml2 is built with ICU, and <libxml/encoding.h> then includes the system ICU
// headers, whose types clash with the copy of ICU inside the toolchain's Foundation
// ("'UErrorCode' has different definitions in different modules"). The clash fails only a clean
// build; a second build looks green. Undefining LIBXML_ICU_ENABLED before the other headers drops
// the ICU include and two ICU-only fields of xmlCharEncodingHandler, which we never touch.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/uri.h>

/// `xmlFree` is a global variable holding a function pointer; Swift 6 rejects touching it.
static inline void tributary_xml_free(void *p) { xmlFree(p); }

/// libxml2 reports a few errors (encoding conversion, I/O) through the calling thread's generic
/// error handler, which prints to stderr. Library code must not print: the feed parser routes them
/// nowhere while it runs (its structured `serror` handler receives everything that matters) and
/// restores libxml2's default afterwards. The handler is variadic, which Swift cannot define.
static void tributary_xml_ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}
static inline void tributary_xml_silence_generic_errors(void) { xmlSetGenericErrorFunc(NULL, tributary_xml_ignore_generic_error); }
static inline void tributary_xml_restore_generic_errors(void) { xmlSetGenericErrorFunc(NULL, NULL); }
