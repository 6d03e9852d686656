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
    connection.call(
        BUS_NAME, OBJECT_PATH, INTERFACE, 'SetFocus',
        new GLib.Variant('(ss)', [appId, title]),
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
