// GNOME 42-44 (legacy imports) twin of ../tapuinput-focus@tapuinput.org/focusPusher.js: the
// same logic, in the module format those shells load. The project's tests run both files
// through the same cases, so they cannot drift apart unnoticed.
/* exported FocusPusher, appIdOf, xkbIdOf */

/**
 * Sends the focused window's app id and title, and the active input source's keyboard layout,
 * to the daemon, once per change; nothing while the daemon is not on the bus, and the current
 * values as soon as it appears.
 */
var FocusPusher = class FocusPusher {
    constructor(send, sendLayout = () => {}) {
        this._send = send;
        this._sendLayout = sendLayout;
        this._layout = null;      // the active input source's XKB id ('de', 'fr+azerty')
        this._lastLayoutSent = null;
        this._daemonPresent = false;
        this._current = null;
        this._lastSent = null;
    }

    focusChanged(appId, title) {
        this._current = [appId ?? '', title ?? ''];
        this._flush();
    }

    daemonAppeared() {
        this._daemonPresent = true;
        this._lastSent = null;
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
};

/** The Wayland app_id or X11 WM_CLASS class of a Meta.Window, '' for none. */
function appIdOf(window) {
    if (!window)
        return '';
    return window.get_wm_class() ?? window.get_sandboxed_app_id?.() ?? '';
}

/** The XKB layout of a GNOME input source ('de', 'fr+azerty'): an IBus engine's too. */
function xkbIdOf(source) {
    if (!source)
        return '';
    return source.xkbId ?? (source.type === 'xkb' ? source.id : '') ?? '';
}
