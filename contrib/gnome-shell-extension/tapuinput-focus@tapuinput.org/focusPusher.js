// The extension's logic without GNOME Shell: which (app id, title) to send, and when.
// Kept free of gi:// imports so it runs under plain gjs or node in the project's tests.

/**
 * Sends the focused window's app id and title, and the active input source's keyboard layout,
 * to the daemon, once per change.
 *
 * - `send(appId, title)` and `sendLayout(layout)` perform the D-Bus calls (injected by
 *   extension.js).
 * - Repeats are dropped: a title "change" to the same text sends nothing.
 * - While the daemon is not on the bus nothing is sent; when it appears, the current focus and
 *   layout are sent at once, so a daemon (re)started after login still learns them.
 */
export class FocusPusher {
    constructor(send, sendLayout = () => {}) {
        this._send = send;
        this._sendLayout = sendLayout;
        this._layout = null;      // the active input source's XKB id ('de', 'fr+azerty')
        this._lastLayoutSent = null;
        this._daemonPresent = false;
        this._current = null;     // [appId, title] of the focused window, or ['', ''] for none
        this._lastSent = null;
    }

    /** The focused window changed, or its title or class did. `appId` null/undefined = none. */
    focusChanged(appId, title) {
        this._current = [appId ?? '', title ?? ''];
        this._flush();
    }

    daemonAppeared() {
        this._daemonPresent = true;
        this._lastSent = null;    // a new daemon instance knows nothing yet
        this._lastLayoutSent = null;
        this._flush();
        this._flushLayout();
    }

    /** The active input source changed: its XKB layout id, '' when unknown. */
    layoutChanged(layout) {
        this._layout = layout ?? '';
        this._flushLayout();
    }

    daemonVanished() {
        this._daemonPresent = false;
    }

    _flush() {
        if (!this._daemonPresent || this._current === null)
            return;
        const [appId, title] = this._current;
        if (this._lastSent && this._lastSent[0] === appId && this._lastSent[1] === title)
            return;
        this._lastSent = [appId, title];
        this._send(appId, title);
    }

    _flushLayout() {
        if (!this._daemonPresent || !this._layout || this._layout === this._lastLayoutSent)
            return;
        this._lastLayoutSent = this._layout;
        this._sendLayout(this._layout);
    }
}

/** The app id GNOME Shell knows for `window` (a Meta.Window): the Wayland app_id or the X11
 * WM_CLASS class, which is what the daemon's other focus sources report. */
export function appIdOf(window) {
    if (!window)
        return '';
    return window.get_wm_class() ?? window.get_sandboxed_app_id?.() ?? '';
}

/** The XKB layout of a GNOME input source ('de', 'fr+azerty'): an IBus engine's too. */
export function xkbIdOf(source) {
    if (!source)
        return '';
    return source.xkbId ?? (source.type === 'xkb' ? source.id : '') ?? '';
}
