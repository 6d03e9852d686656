// The foreign-toplevel client behind CWlrToplevel.h. Single-threaded: every call comes from
// the daemon's loop thread.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>
#include "CWlrToplevel.h"
#include "protocol.h"

struct toplevel {
    struct tap_toplevels *owner;
    struct wl_proxy *handle;
    char *title, *app_id;                 // committed at `done`
    char *pending_title, *pending_app_id; // NULL: unchanged since the last `done`
    int activated, pending_activated;     // pending_activated: -1 unchanged
    struct toplevel *next;
};

struct tap_toplevels {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_callback *sync;          // answers once every global is announced
    struct wl_callback *initial;       // answers once the toplevels that exist are announced
    struct wl_proxy *manager;
    int status;
    int changed;
    struct toplevel *toplevels;
};

static void replace(char **slot, const char *value) {
    free(*slot);
    *slot = strdup(value ? value : "");
}

static void free_toplevel(struct toplevel *t) {
    free(t->title); free(t->app_id); free(t->pending_title); free(t->pending_app_id);
    free(t);
}

// MARK: toplevel handle events (state is double-buffered until `done`)

static void handle_title(void *data, struct wl_proxy *h, const char *title) {
    (void)h;
    replace(&((struct toplevel *)data)->pending_title, title);
}

static void handle_app_id(void *data, struct wl_proxy *h, const char *app_id) {
    (void)h;
    replace(&((struct toplevel *)data)->pending_app_id, app_id);
}

static void handle_output(void *data, struct wl_proxy *h, struct wl_proxy *o) { (void)data; (void)h; (void)o; }

static void handle_state(void *data, struct wl_proxy *h, struct wl_array *state) {
    (void)h;
    struct toplevel *t = data;
    t->pending_activated = 0;
    const uint32_t *s = state->data;
    for (size_t i = 0; i < state->size / sizeof(uint32_t); i++)
        if (s[i] == TOPLEVEL_STATE_ACTIVATED) t->pending_activated = 1;
}

static void handle_done(void *data, struct wl_proxy *h) {
    (void)h;
    struct toplevel *t = data;
    int relevant = t->activated;   // a change to the focused window, or of which one is
    if (t->pending_title) { free(t->title); t->title = t->pending_title; t->pending_title = NULL; }
    if (t->pending_app_id) { free(t->app_id); t->app_id = t->pending_app_id; t->pending_app_id = NULL; }
    if (t->pending_activated >= 0) { t->activated = t->pending_activated; t->pending_activated = -1; }
    if (relevant || t->activated) t->owner->changed = 1;
}

static void handle_closed(void *data, struct wl_proxy *h) {
    struct toplevel *t = data;
    struct tap_toplevels *owner = t->owner;
    if (t->activated) owner->changed = 1;
    for (struct toplevel **p = &owner->toplevels; *p; p = &(*p)->next) {
        if (*p == t) { *p = t->next; break; }
    }
    wl_proxy_marshal_flags(h, TOPLEVEL_HANDLE_DESTROY, NULL, wl_proxy_get_version(h), WL_MARSHAL_FLAG_DESTROY);
    free_toplevel(t);
}

static void handle_parent(void *data, struct wl_proxy *h, struct wl_proxy *p) { (void)data; (void)h; (void)p; }

static const struct toplevel_handle_listener handle_listener = {
    handle_title, handle_app_id, handle_output, handle_output, handle_state, handle_done, handle_closed, handle_parent,
};

// MARK: manager events

static void manager_toplevel(void *data, struct wl_proxy *manager, struct wl_proxy *handle) {
    (void)manager;
    struct tap_toplevels *owner = data;
    struct toplevel *t = calloc(1, sizeof *t);
    if (!t) return;
    t->owner = owner;
    t->handle = handle;
    t->title = strdup("");
    t->app_id = strdup("");
    t->pending_activated = -1;
    t->next = owner->toplevels;
    owner->toplevels = t;
    wl_proxy_add_listener(handle, (void (**)(void))&handle_listener, t);
}

static void manager_finished(void *data, struct wl_proxy *manager) {
    struct tap_toplevels *owner = data;
    wl_proxy_destroy(manager);
    owner->manager = NULL;
    owner->status = TAP_TOPLEVELS_UNSUPPORTED;
}

static const struct toplevel_manager_listener manager_listener = { manager_toplevel, manager_finished };

// MARK: registry

/// The answer to the sync sent after binding the manager: the compositor has announced every
/// toplevel that existed, so the focus at start (possibly none) is known.
static void initial_done(void *data, struct wl_callback *callback, uint32_t serial) {
    (void)serial;
    struct tap_toplevels *t = data;
    wl_callback_destroy(callback);
    t->initial = NULL;
    t->changed = 1;
}

static const struct wl_callback_listener initial_listener = { initial_done };

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct tap_toplevels *t = data;
    if (t->manager || strcmp(interface, zwlr_foreign_toplevel_manager_v1_interface.name) != 0) return;
    uint32_t v = version < 3 ? version : 3;
    t->manager = wl_registry_bind(registry, name, &zwlr_foreign_toplevel_manager_v1_interface, v);
    if (t->manager) {
        wl_proxy_add_listener(t->manager, (void (**)(void))&manager_listener, t);
        t->status = TAP_TOPLEVELS_READY;
        t->initial = wl_display_sync(t->display);
        wl_callback_add_listener(t->initial, &initial_listener, t);
    }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener registry_listener = { registry_global, registry_global_remove };

/// The answer to the wl_display.sync sent after get_registry: every global has been announced.
static void sync_done(void *data, struct wl_callback *callback, uint32_t serial) {
    (void)serial;
    struct tap_toplevels *t = data;
    wl_callback_destroy(callback);
    t->sync = NULL;
    if (!t->manager) t->status = TAP_TOPLEVELS_UNSUPPORTED;
}

static const struct wl_callback_listener sync_listener = { sync_done };

// MARK: API

tap_toplevels *tap_toplevels_connect(const char *display) {
    struct wl_display *d = wl_display_connect(display);
    if (!d) return NULL;
    tap_toplevels *t = calloc(1, sizeof *t);
    if (!t) { wl_display_disconnect(d); return NULL; }
    t->display = d;
    t->registry = wl_display_get_registry(d);
    wl_registry_add_listener(t->registry, &registry_listener, t);
    t->sync = wl_display_sync(d);
    wl_callback_add_listener(t->sync, &sync_listener, t);
    return t;
}

int tap_toplevels_fd(tap_toplevels *t) { return wl_display_get_fd(t->display); }

int tap_toplevels_dispatch(tap_toplevels *t) {
    struct wl_display *d = t->display;
    while (wl_display_prepare_read(d) != 0) {
        if (wl_display_dispatch_pending(d) < 0) return -1;
    }
    // Sends our requests before reading (a flush that would block is retried next time).
    if (wl_display_flush(d) < 0 && errno != EAGAIN) { wl_display_cancel_read(d); return -1; }
    if (wl_display_read_events(d) < 0) return -1;   // EAGAIN is not an error here
    if (wl_display_dispatch_pending(d) < 0) return -1;
    if (wl_display_flush(d) < 0 && errno != EAGAIN) return -1;
    return 0;
}

int tap_toplevels_status(tap_toplevels *t) { return t->status; }

int tap_toplevels_take_changed(tap_toplevels *t) {
    int c = t->changed;
    t->changed = 0;
    return c;
}

int tap_toplevels_focused(tap_toplevels *t, const char **app_id, const char **title) {
    for (struct toplevel *p = t->toplevels; p; p = p->next) {
        if (p->activated) { *app_id = p->app_id; *title = p->title; return 1; }
    }
    *app_id = "";
    *title = "";
    return 0;
}

void tap_toplevels_destroy(tap_toplevels *t) {
    if (!t) return;
    struct toplevel *p = t->toplevels;
    while (p) {
        struct toplevel *next = p->next;
        wl_proxy_destroy(p->handle);
        free_toplevel(p);
        p = next;
    }
    if (t->manager) wl_proxy_destroy(t->manager);
    if (t->sync) wl_callback_destroy(t->sync);
    if (t->initial) wl_callback_destroy(t->initial);
    if (t->registry) wl_registry_destroy(t->registry);
    wl_display_disconnect(t->display);
    free(t);
}
