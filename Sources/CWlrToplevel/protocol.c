// Interface descriptions of wlr-foreign-toplevel-management-unstable-v1 (version 3), written
// from the protocol's specification: message names, argument signatures and their order
// (which is the opcode). Only events are listened to; of the requests only `destroy` (7) and
// `stop` (0) are sent.
#include <stddef.h>
#include <wayland-client.h>
#include "protocol.h"

static const struct wl_interface *no_types[] = { NULL, NULL, NULL, NULL, NULL };
static const struct wl_interface *seat_type[] = { &wl_seat_interface };
static const struct wl_interface *rectangle_types[] = { &wl_surface_interface, NULL, NULL, NULL, NULL };
static const struct wl_interface *output_type[] = { &wl_output_interface };
static const struct wl_interface *handle_type[] = { &zwlr_foreign_toplevel_handle_v1_interface };

static const struct wl_message handle_requests[] = {
    { "set_maximized", "", no_types },
    { "unset_maximized", "", no_types },
    { "set_minimized", "", no_types },
    { "unset_minimized", "", no_types },
    { "activate", "o", seat_type },
    { "close", "", no_types },
    { "set_rectangle", "oiiii", rectangle_types },
    { "destroy", "", no_types },
    { "set_fullscreen", "2?o", output_type },
    { "unset_fullscreen", "2", no_types },
};

static const struct wl_message handle_events[] = {
    { "title", "s", no_types },
    { "app_id", "s", no_types },
    { "output_enter", "o", output_type },
    { "output_leave", "o", output_type },
    { "state", "a", no_types },
    { "done", "", no_types },
    { "closed", "", no_types },
    { "parent", "3?o", handle_type },
};

const struct wl_interface zwlr_foreign_toplevel_handle_v1_interface = {
    "zwlr_foreign_toplevel_handle_v1", 3, 10, handle_requests, 8, handle_events,
};

static const struct wl_message manager_requests[] = {
    { "stop", "", no_types },
};

static const struct wl_message manager_events[] = {
    { "toplevel", "n", handle_type },
    { "finished", "", no_types },
};

const struct wl_interface zwlr_foreign_toplevel_manager_v1_interface = {
    "zwlr_foreign_toplevel_manager_v1", 3, 1, manager_requests, 2, manager_events,
};
