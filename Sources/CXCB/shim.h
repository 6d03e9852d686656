#include <xcb/xcb.h>
// xcb_poll_for_reply: collect a reply without blocking (the X11 focus source never waits).
#include <xcb/xcbext.h>
// The XKB extension: the active group and its change events (the X11 source's layout).
#include <xcb/xkb.h>

/// The XKB extension's descriptor, for xcb_prefetch_extension_data / xcb_get_extension_data
/// (a function, so Swift does not see a mutable C global).
static inline xcb_extension_t *cxcb_xkb_extension(void) { return &xcb_xkb_id; }
