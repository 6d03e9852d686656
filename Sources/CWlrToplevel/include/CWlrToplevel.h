// A small wlroots foreign-toplevel client (zwlr_foreign_toplevel_manager_v1, version 1-3) for
// the focus source: it keeps the list of toplevels with their app id, title and "activated"
// state, and answers "which one is focused" after each dispatch. No callbacks into Swift.
//
// Everything is non-blocking: connect, then watch tap_toplevels_fd() for readability and call
// tap_toplevels_dispatch() each time (and once after connecting, to send the first requests).
#ifndef CWLR_TOPLEVEL_H
#define CWLR_TOPLEVEL_H

typedef struct tap_toplevels tap_toplevels;

enum tap_toplevels_status {
    TAP_TOPLEVELS_PENDING = 0,      // globals not known yet
    TAP_TOPLEVELS_READY = 1,        // manager bound; toplevels arrive as events
    TAP_TOPLEVELS_UNSUPPORTED = 2,  // the compositor does not offer the protocol
};

/// Connects to `display` (a name such as "wayland-1", an absolute socket path, or NULL for
/// $WAYLAND_DISPLAY) and asks for the registry. NULL when the connection fails.
tap_toplevels *tap_toplevels_connect(const char *display);
int tap_toplevels_fd(tap_toplevels *t);
/// Reads and dispatches what is available, then flushes. -1 when the connection is dead.
int tap_toplevels_dispatch(tap_toplevels *t);
int tap_toplevels_status(tap_toplevels *t);
/// Whether the focus may have changed since the last call (and clears the flag).
int tap_toplevels_take_changed(tap_toplevels *t);
/// 1 and the activated toplevel's app id and title (borrowed until the next dispatch; never
/// NULL), or 0 when none is activated.
int tap_toplevels_focused(tap_toplevels *t, const char **app_id, const char **title);
void tap_toplevels_destroy(tap_toplevels *t);

#endif
