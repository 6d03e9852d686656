// GNOME 42-44 (legacy imports) twin of ../tapuinput-focus@tapuinput.org/daemonBus.js.
/* exported BUS_NAME, OBJECT_PATH, INTERFACE, sendSetFocus, watchDaemon, unwatchDaemon */
const {Gio, GLib} = imports.gi;

var BUS_NAME = 'org.tapuinput.Daemon';
var OBJECT_PATH = '/org/tapuinput/Daemon';
var INTERFACE = 'org.tapuinput.Daemon1';

/** One asynchronous SetFocus(s app_id, s title) call; never blocks, never auto-starts. */
function sendSetFocus(appId, title, done = null, connection = Gio.DBus.session) {
    connection.call(
        BUS_NAME, OBJECT_PATH, INTERFACE, 'SetFocus',
        new GLib.Variant('(ss)', [appId, title]),
        null, Gio.DBusCallFlags.NO_AUTO_START, 1000, null,
        (conn, result) => {
            let error = null;
            try {
                conn.call_finish(result);
            } catch (e) {
                error = e;
            }
            if (done)
                done(error);
        });
}

function watchDaemon(appeared, vanished) {
    return Gio.bus_watch_name(Gio.BusType.SESSION, BUS_NAME, Gio.BusNameWatcherFlags.NONE,
        () => appeared(), () => vanished());
}

function unwatchDaemon(id) {
    Gio.bus_unwatch_name(id);
}
