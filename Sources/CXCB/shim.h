#include <xcb/xcb.h>
// xcb_poll_for_reply: collect a reply without blocking (the X11 focus source never waits).
#include <xcb/xcbext.h>
