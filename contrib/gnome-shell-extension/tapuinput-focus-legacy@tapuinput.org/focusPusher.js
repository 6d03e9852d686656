// GNOME 42-44 (legacy imports) twin of ../tapuinput-focus@tapuinput.org/focusPusher.js: the
// same logic, in the module format those shells load. The project's tests run both files
// through the same cases, so they cannot drift apart unnoticed.
/* exported FocusPusher, appIdOf */

/**
 * Sends the focused window's app id and title to the daemon, once per change; nothing while
 * the daemon is not on the bus, and the current focus as soon as it appears.
 */
var FocusPusher = class FocusPusher {
    constructor(send) {
        this._send = send;
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
        this._flush();
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
};

/** The Wayland app_id or X11 WM_CLASS class of a Meta.Window, '' for none. */
function appIdOf(window) {
    if (!window)
        return '';
    return window.get_wm_class() ?? window.get_sandboxed_app_id?.() ?? '';
}
