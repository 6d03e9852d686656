// Runs the GNOME extension's D-Bus side (daemonBus.js + focusPusher.js) under gjs on a real
// private session bus (start with dbus-run-session), against a stand-in daemon that owns
// org.tapuinput.Daemon and exports SetFocus(s, s) and SetLayout(s, s). Exit 0 when every call
// arrived as expected.
// `--legacy` loads the GNOME 42-44 twin modules (legacy `imports` format) instead.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

const extensions = GLib.build_filenamev([GLib.path_get_dirname(GLib.filename_from_uri(import.meta.url)[0]),
    '..', '..', 'contrib', 'gnome-shell-extension']);
let bus, pusherModule;
if (System.programArgs.includes('--legacy')) {
    imports.searchPath.unshift(`${extensions}/tapuinput-focus-legacy@tapuinput.org`);
    bus = imports.daemonBus;
    pusherModule = imports.focusPusher;
} else {
    bus = await import(`file://${extensions}/tapuinput-focus@tapuinput.org/daemonBus.js`);
    pusherModule = await import(`file://${extensions}/tapuinput-focus@tapuinput.org/focusPusher.js`);
}
const {BUS_NAME, OBJECT_PATH, sendSetFocus, sendSetLayout, watchDaemon} = bus;
const {FocusPusher} = pusherModule;

const XML = `<node><interface name="org.tapuinput.Daemon1">
  <method name="SetFocus"><arg type="s" name="app_id" direction="in"/><arg type="s" name="title" direction="in"/></method>
  <method name="SetLayout"><arg type="s" name="origin" direction="in"/><arg type="s" name="layout" direction="in"/></method>
</interface></node>`;

const expected = [['firefox', 'Mozilla Firefox'], ['gnome', 'fr+azerty'], ['org.gnome.Console', 'bash — ~/src, "quoted"']];
const received = [];
const loop = new GLib.MainLoop(null, false);
let status = 1;

function finish(code, message) {
    status = code;
    print(message);
    loop.quit();
}

GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 10, () => {
    finish(1, `timeout; received ${JSON.stringify(received)}`);
    return GLib.SOURCE_REMOVE;
});

// 1. No daemon on the bus: the call fails fast (no auto-start, no hang).
sendSetFocus('nobody', 'home', error => {
    if (!error) {
        finish(1, 'SetFocus succeeded with no daemon on the bus');
        return;
    }
    // 2. The extension's pusher waits for the daemon, then sends the focus it has.
    const failed = e => e && finish(1, `call failed: ${e}`);
    const pusher = new FocusPusher((a, t) => sendSetFocus(a, t, failed), layout => sendSetLayout(layout, failed));
    watchDaemon(() => pusher.daemonAppeared(), () => pusher.daemonVanished());
    pusher.focusChanged('firefox', 'Mozilla Firefox');
    pusher.layoutChanged('fr+azerty');
    const arrived = () => {
        if (received.length === 2)
            pusher.focusChanged('org.gnome.Console', expected[2][1]);
        if (received.length === expected.length) {
            const ok = JSON.stringify(received) === JSON.stringify(expected);
            finish(ok ? 0 : 1, ok ? 'ok' : `mismatch: ${JSON.stringify(received)}`);
        }
    };

    const daemon = Gio.DBusExportedObject.wrapJSObject(XML, {
        SetFocus(appId, title) {
            received.push([appId, title]);
            arrived();
        },
        SetLayout(origin, layout) {
            received.push([origin, layout]);
            arrived();
        },
    });
    daemon.export(Gio.DBus.session, OBJECT_PATH);
    Gio.bus_own_name(Gio.BusType.SESSION, BUS_NAME, Gio.BusNameOwnerFlags.NONE, null, null,
        () => finish(1, 'could not own the daemon name'));
});

loop.run();
System.exit(status);
