// TapUinput focus: pushes the focused window's app id and title, and the active input
// source's keyboard layout, to the tap-uinput daemon. GNOME Shell 45+ (ES modules).
// Install: docs/focus.md.
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import {getInputSourceManager} from 'resource:///org/gnome/shell/ui/status/keyboard.js';

import {FocusPusher, appIdOf, xkbIdOf} from './focusPusher.js';
import {sendSetFocus, sendSetLayout, watchDaemon, unwatchDaemon} from './daemonBus.js';

export default class TapUinputFocusExtension extends Extension {
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

    /** Follows title and class changes of the focused window only. */
    _watchWindow(window) {
        for (const id of this._windowSignals)
            this._window.disconnect(id);
        this._windowSignals = [];
        this._window = window;
        if (window) {
            this._windowSignals = [
                window.connect('notify::title', () => this._report()),
                window.connect('notify::wm-class', () => this._report()),
                // A destroyed window stops being a valid object: drop it before that.
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
