// The GNOME Shell extension's logic (focusPusher.js) without GNOME Shell. What it cannot
// check: gnome-shell loading the extension and Mutter's signals; extension.js's D-Bus call is
// exercised for real by gnome-dbus-call.js when gjs is installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

// The GNOME 45+ module and its GNOME 42-44 twin (legacy format) go through the same cases.
const root = new URL('../../contrib/gnome-shell-extension/', import.meta.url).pathname;
const modern = await import('data:text/javascript,' +
    encodeURIComponent(readFileSync(`${root}tapuinput-focus@tapuinput.org/focusPusher.js`, 'utf8')));
const legacy = {};
vm.runInNewContext(readFileSync(`${root}tapuinput-focus-legacy@tapuinput.org/focusPusher.js`, 'utf8'), legacy);

for (const [name, { FocusPusher, appIdOf, xkbIdOf }] of [['GNOME 45+', modern], ['GNOME 42-44', legacy]]) {
test(`${name}: the layout of an xkb source, of an IBus engine, or nothing`, () => {
    assert.equal(xkbIdOf(null), '');
    assert.equal(xkbIdOf({ type: 'xkb', id: 'fr+azerty', xkbId: 'fr+azerty' }), 'fr+azerty');
    assert.equal(xkbIdOf({ type: 'ibus', id: 'mozc-jp', xkbId: 'jp' }), 'jp');
    assert.equal(xkbIdOf({ type: 'xkb', id: 'de' }), 'de');
    assert.equal(xkbIdOf({ type: 'ibus', id: 'mozc-jp' }), '');
});

test(`${name}: sends nothing until the daemon appears, then the current focus, then each change once`, () => {
    const sent = [];
    const p = new FocusPusher((a, t) => sent.push([a, t]));
    p.focusChanged('org.gnome.Nautilus', 'Home');
    assert.deepEqual(sent, []);
    p.daemonAppeared();
    p.focusChanged('org.gnome.Nautilus', 'Home');      // repeat: dropped
    p.focusChanged('firefox', 'Mozilla Firefox');
    p.focusChanged(null, null);                         // nothing focused
    p.daemonVanished();
    p.focusChanged('org.gnome.Console', 'bash');        // daemon away: not sent...
    p.daemonAppeared();                                 // ...but on its return
    p.daemonAppeared();                                 // a restarted daemon hears it again
    assert.deepEqual(sent, [
        ['org.gnome.Nautilus', 'Home'],
        ['firefox', 'Mozilla Firefox'],
        ['', ''],
        ['org.gnome.Console', 'bash'],
        ['org.gnome.Console', 'bash'],
    ]);
});

test(`${name}: app id is the wm class, else the sandboxed app id`, () => {
    assert.equal(appIdOf(null), '');
    assert.equal(appIdOf({ get_wm_class: () => 'firefox' }), 'firefox');
    assert.equal(appIdOf({ get_wm_class: () => null, get_sandboxed_app_id: () => 'org.example.Flat' }), 'org.example.Flat');
    assert.equal(appIdOf({ get_wm_class: () => null }), '');
});
}
