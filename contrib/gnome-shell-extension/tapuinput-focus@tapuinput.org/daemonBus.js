// The daemon's side of the session bus, as the extension sees it. Only gi://Gio and
// gi://GLib, so the project's tests run it under plain gjs on a private bus.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

export const BUS_NAME = 'org.tapuinput.Daemon';
export const OBJECT_PATH = '/org/tapuinput/Daemon';
export const INTERFACE = 'org.tapuinput.Daemon1';

/**
 * One asynchronous SetFocus(s app_id, s title) call. Never blocks the shell and never
 * starts the daemon (NO_AUTO_START); `done(error)` is optional and gets null on success.
 */
export function sendSetFocus(appId, title, done = null, connection = Gio.DBus.session) {
    callDaemon('SetFocus', [appId, title], done, connection);
}

/**
 * One asynchronous SetLayout('gnome', layout) call: the active input source's XKB layout, so
 * the daemon types characters for it. Same guarantees as sendSetFocus.
 */
export function sendSetLayout(layout, done = null, connection = Gio.DBus.session) {
    callDaemon('SetLayout', ['gnome', layout], done, connection);
}

function callDaemon(method, strings, done, connection) {
    connection.call(
        BUS_NAME, OBJECT_PATH, INTERFACE, method,
        new GLib.Variant(`(${'s'.repeat(strings.length)})`, strings),
        null, Gio.DBusCallFlags.NO_AUTO_START, 1000, null,
        (conn, result) => {
            let error = null;
            try {
                conn.call_finish(result);
            } catch (e) {
                error = e;   // the daemon went away between the name watch and the call
            }
            done?.(error);
        });
}

/** Calls `appeared()` whenever the daemon takes its bus name, `vanished()` when it drops it.
 * Returns the watch id for unwatchDaemon. */
export function watchDaemon(appeared, vanished) {
    return Gio.bus_watch_name(Gio.BusType.SESSION, BUS_NAME, Gio.BusNameWatcherFlags.NONE,
        () => appeared(), () => vanished());
}

export function unwatchDaemon(id) {
    Gio.bus_unwatch_name(id);
}
