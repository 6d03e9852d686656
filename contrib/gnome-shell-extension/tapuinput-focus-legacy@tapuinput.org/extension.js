// TapUinput focus for GNOME Shell 42-44 (legacy module format; GNOME 45+ uses the
// tapuinput-focus@tapuinput.org extension). Install: docs/focus.md.
/* exported init */
const ExtensionUtils = imports.misc.extensionUtils;
const Me = ExtensionUtils.getCurrentExtension();
const {getInputSourceManager} = imports.ui.status.keyboard;
const {FocusPusher, appIdOf, xkbIdOf} = Me.imports.focusPusher;
const {sendSetFocus, sendSetLayout, watchDaemon, unwatchDaemon} = Me.imports.daemonBus;

class TapUinputFocusExtension {
    enable() {
        this._pusher = new FocusPusher((appId, title) => sendSetFocus(appId, title), layout => sendSetLayout(layout));
        this._window = null;
        this._windowSignals = [];
        this._focusSignal = global.display.connect('notify::focus-window', () => this._focusMoved());
        this._nameWatch = watchDaemon(
            () => this._pusher?.daemonAppeared(),
            () => this._pusher?.daemonVanished());
        this._inputSources = getInputSourceManager();
        this._layoutSignal = this._inputSources.connect('current-source-changed', () => this._layoutSwitched());
        this._focusMoved();
        this._layoutSwitched();
    }

    disable() {
        global.display.disconnect(this._focusSignal);
        this._inputSources.disconnect(this._layoutSignal);
        this._inputSources = null;
        unwatchDaemon(this._nameWatch);
        this._watchWindow(null);
        this._pusher = null;
    }

    _focusMoved() {
        this._watchWindow(global.display.focus_window);
        this._report();
    }

    _watchWindow(window) {
        for (const id of this._windowSignals)
            this._window.disconnect(id);
        this._windowSignals = [];
        this._window = window;
        if (window) {
            this._windowSignals = [
                window.connect('notify::title', () => this._report()),
                window.connect('notify::wm-class', () => this._report()),
                window.connect('unmanaging', () => this._watchWindow(null)),
            ];
        }
    }

    _layoutSwitched() {
        this._pusher?.layoutChanged(xkbIdOf(this._inputSources?.currentSource));
    }

    _report() {
        const w = this._window;
        this._pusher?.focusChanged(appIdOf(w), w ? (w.get_title() ?? '') : '');
    }
}

function init() {
    return new TapUinputFocusExtension();
}
