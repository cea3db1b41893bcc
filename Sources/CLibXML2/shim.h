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
