// GNOME 42-44 (legacy imports) twin of ../tapuinput-focus@tapuinput.org/daemonBus.js.
/* exported BUS_NAME, OBJECT_PATH, INTERFACE, sendSetFocus, sendSetLayout, watchDaemon, unwatchDaemon */
const {Gio, GLib} = imports.gi;

var BUS_NAME = 'org.tapuinput.Daemon';
var OBJECT_PATH = '/org/tapuinput/Daemon';
var INTERFACE = 'org.tapuinput.Daemon1';

/** One asynchronous SetFocus(s app_id, s title) call; never blocks, never auto-starts. */
function sendSetFocus(appId, title, done = null, connection = Gio.DBus.session) {
    callDaemon('SetFocus', [appId, title], done, connection);
}

/** One asynchronous SetLayout('gnome', layout) call, like sendSetFocus. */
function sendSetLayout(layout, done = null, connection = Gio.DBus.session) {
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
