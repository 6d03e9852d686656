// Private: the protocol's interfaces, listeners and opcodes (see protocol.c).
#ifndef CWLR_TOPLEVEL_PROTOCOL_H
#define CWLR_TOPLEVEL_PROTOCOL_H
#include <stdint.h>
#include <wayland-client.h>

extern const struct wl_interface zwlr_foreign_toplevel_handle_v1_interface;
extern const struct wl_interface zwlr_foreign_toplevel_manager_v1_interface;

enum { TOPLEVEL_HANDLE_DESTROY = 7, TOPLEVEL_MANAGER_STOP = 0 };
enum { TOPLEVEL_STATE_ACTIVATED = 2 };

// Listener layouts: one function per event, in event order.
struct toplevel_handle_listener {
    void (*title)(void *data, struct wl_proxy *handle, const char *title);
    void (*app_id)(void *data, struct wl_proxy *handle, const char *app_id);
    void (*output_enter)(void *data, struct wl_proxy *handle, struct wl_proxy *output);
    void (*output_leave)(void *data, struct wl_proxy *handle, struct wl_proxy *output);
    void (*state)(void *data, struct wl_proxy *handle, struct wl_array *state);
    void (*done)(void *data, struct wl_proxy *handle);
    void (*closed)(void *data, struct wl_proxy *handle);
    void (*parent)(void *data, struct wl_proxy *handle, struct wl_proxy *parent);
};

struct toplevel_manager_listener {
    void (*toplevel)(void *data, struct wl_proxy *manager, struct wl_proxy *handle);
    void (*finished)(void *data, struct wl_proxy *manager);
};
#endif
