#!/usr/bin/env python3
"""A fake bluetoothd for TapBLE's tests: org.bluez on a private bus, with adapters, paired
TAP devices and their GATT objects (StartNotify, AcquireNotify over SOCK_SEQPACKET socket
pairs, ReadValue, WriteValue), plus a control interface `org.tapuinput.FakeBlueZ1` at
/fake for the test to inject notifications, drop and restore links, power adapters and
read back every write with its CLOCK_MONOTONIC time.

For the benchmark, `Stream` sends a list of notifications paced from inside the fake (or back
to back) and `StreamTimes` returns the CLOCK_MONOTONIC time each one left: taken just before
the socket send, or just before the PropertiesChanged signal goes to the bus.

Usage: fake_bluez.py --address BUS_ADDRESS --scenario JSON
Prints READY once it owns org.bluez.
"""
import argparse
import asyncio
import fcntl
import json
import os
import socket
import struct
import sys
import termios
import time

from dbus_fast import BusType, Message, MessageType, Variant
from dbus_fast.aio import MessageBus

TAP = "c3ff{:04x}-1d8b-40fd-a56f-c7bd5d0f3370"
NUS = "6e40{:04x}-b5a3-f393-e0a9-e50e24dcca9e"
SIG = "0000{:04x}-0000-1000-8000-00805f9b34fb"

PROPS = "org.freedesktop.DBus.Properties"
OM = "org.freedesktop.DBus.ObjectManager"


def v1_characteristics(dev):
    """(service uuid, [(char uuid, flags, value)])"""
    return [
        (TAP.format(1), [
            (TAP.format(5), ["notify"], b""),
            (TAP.format(6), ["notify", "write", "write-without-response"], b""),
            (TAP.format(9), ["write", "write-without-response"], b""),
            (TAP.format(0xA), ["notify", "write-without-response", "read"], b""),
        ] + ([(TAP.format(0xE), ["notify"], b""), (TAP.format(0xF), ["write"], b"")] if dev.get("v2") else [])),
        (NUS.format(1), [
            (NUS.format(2), ["write", "write-without-response"], b""),
            (NUS.format(3), ["notify"], b""),
        ]),
        (SIG.format(0x180A), [
            (SIG.format(0x2A26), ["read"], dev.get("fw", "2.4.30").encode() + b"\0"),
            (SIG.format(0x2A27), ["read"], dev.get("hw", "3.3.0").encode()),
        ]),
    ] + ([(SIG.format(0x180F), [(SIG.format(0x2A19), ["read", "notify"], bytes([dev["battery_char"]]))])]
         if "battery_char" in dev else [])


class Fake:
    def __init__(self, bus, scenario):
        self.bus = bus
        self.objects = {}          # path -> {iface: {prop: Variant}}
        self.devices = {}          # address -> dict (scenario + runtime)
        self.chars = {}            # char path -> (address, uuid)
        self.sockets = {}          # char path -> server socket
        self.writes = []           # (t_ns, address, uuid, bytes, type)
        self.stream_times = []     # send times of the current Stream, ns
        self.stream_done = True
        for a in scenario.get("adapters", [{"path": "/org/bluez/hci0", "powered": True}]):
            self.objects[a["path"]] = {"org.bluez.Adapter1": {
                "Address": Variant("s", "00:11:22:33:44:55"), "Powered": Variant("b", a.get("powered", True)),
                "Name": Variant("s", "fake")}}
        for d in scenario.get("devices", []):
            d.setdefault("adapter", "/org/bluez/hci0")
            d.setdefault("reachable", True)
            d.setdefault("gatt_cache", False)
            d.setdefault("connect_delay_ms", 0)
            d["path"] = d["adapter"] + "/dev_" + d["address"].replace(":", "_")
            self.devices[d["address"]] = d
            props = {
                "Address": Variant("s", d["address"]), "Name": Variant("s", d.get("name", "Tap_X")),
                "Alias": Variant("s", d.get("alias", d.get("name", "Tap_X"))),
                "Paired": Variant("b", d.get("paired", True)), "Trusted": Variant("b", True),
                "Connected": Variant("b", d.get("connected", False)),
                "ServicesResolved": Variant("b", d.get("connected", False)),
                "UUIDs": Variant("as", d.get("uuids", [TAP.format(1), NUS.format(1)])),
                "Adapter": Variant("o", d["adapter"]),
            }
            self.objects[d["path"]] = {"org.bluez.Device1": props}
            if "battery" in d:
                self.objects[d["path"]]["org.bluez.Battery1"] = {"Percentage": Variant("y", d["battery"])}
            if d.get("connected") or d["gatt_cache"]:
                self.add_gatt(d, announce=False)

    # -- object tree -------------------------------------------------------------------
    def add_gatt(self, d, announce=True):
        n = 0x10
        for svc_uuid, chars in v1_characteristics(d):
            spath = f"{d['path']}/service{n:04x}"
            n += 1
            if spath in self.objects:
                n += len(chars)
                continue
            svc = {"org.bluez.GattService1": {"UUID": Variant("s", svc_uuid), "Device": Variant("o", d["path"]),
                                              "Primary": Variant("b", True)}}
            self.objects[spath] = svc
            if announce:
                self.signal("/", OM, "InterfacesAdded", "oa{sa{sv}}", [spath, svc])
            for uuid, flags, value in chars:
                cpath = f"{spath}/char{n:04x}"
                n += 1
                props = {"org.bluez.GattCharacteristic1": {
                    "UUID": Variant("s", uuid), "Service": Variant("o", spath), "Flags": Variant("as", flags),
                    "Value": Variant("ay", value), "Notifying": Variant("b", False)}}
                self.objects[cpath] = props
                self.chars[cpath] = (d["address"], uuid)
                if announce:
                    self.signal("/", OM, "InterfacesAdded", "oa{sa{sv}}", [cpath, props])

    def remove_gatt(self, d):
        for path in sorted([p for p in self.objects if p.startswith(d["path"] + "/")], reverse=True):
            ifaces = list(self.objects.pop(path).keys())
            self.chars.pop(path, None)
            self.signal("/", OM, "InterfacesRemoved", "oas", [path, ifaces])

    def signal(self, path, iface, member, sig, body):
        self.bus.send(Message.new_signal(path, iface, member, sig, body))

    def set_props(self, path, iface, stamps=None, **changes):
        for k, v in changes.items():
            self.objects[path][iface][k] = v
        msg = Message.new_signal(path, PROPS, "PropertiesChanged", "sa{sv}as", [iface, changes, []])
        if stamps is not None:
            stamps.append(time.monotonic_ns())
        self.bus.send(msg)

    def device_for(self, path):
        for d in self.devices.values():
            if d["path"] == path:
                return d
        return None

    # -- link control --------------------------------------------------------------------
    def link_up(self, d):
        if not d.get("gatt_cache") or not any(p.startswith(d["path"] + "/") for p in self.objects):
            self.add_gatt(d)
        self.set_props(d["path"], "org.bluez.Device1", Connected=Variant("b", True))
        if not d.get("never_resolves"):
            self.set_props(d["path"], "org.bluez.Device1", ServicesResolved=Variant("b", True))

    def link_down(self, d):
        for cpath, (addr, _) in list(self.chars.items()):
            if addr == d["address"]:
                s = self.sockets.pop(cpath, None)
                if s:
                    s.close()
                if self.objects[cpath]["org.bluez.GattCharacteristic1"]["Notifying"].value:
                    self.set_props(cpath, "org.bluez.GattCharacteristic1", Notifying=Variant("b", False))
        if self.objects[d["path"]]["org.bluez.Device1"]["Connected"].value:
            self.set_props(d["path"], "org.bluez.Device1", ServicesResolved=Variant("b", False))
            self.set_props(d["path"], "org.bluez.Device1", Connected=Variant("b", False))
        if not d.get("gatt_cache"):
            self.remove_gatt(d)

    def peer_alive(self, cpath):
        """Whether the client still holds its end (as BlueZ notices a closed notify socket)."""
        try:
            if self.sockets[cpath].recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                self.sockets.pop(cpath).close()
                return False
        except BlockingIOError:
            pass
        except OSError:   # reset by the client: as closed
            self.sockets.pop(cpath).close()
            return False
        return True

    def notify(self, address, uuid, value, stamps=None):
        """Sends one notification; `stamps` (a list) gets the send time."""
        for cpath, (addr, u) in self.chars.items():
            if addr == address and u == uuid:
                if cpath in self.sockets and self.peer_alive(cpath):
                    if stamps is not None:
                        stamps.append(time.monotonic_ns())
                    self.sockets[cpath].send(value)
                    return "socket"
                if self.objects[cpath]["org.bluez.GattCharacteristic1"]["Notifying"].value:
                    self.set_props(cpath, "org.bluez.GattCharacteristic1", stamps=stamps, Value=Variant("ay", value))
                    return "props"
                return "unsubscribed"
        return "nochar"

    # -- method calls --------------------------------------------------------------------
    def handle(self, msg):
        if msg.message_type != MessageType.METHOD_CALL:
            return None
        try:
            return self.dispatch(msg)
        except BlueZError as e:
            return Message.new_error(msg, e.name, e.text)

    def dispatch(self, msg):
        iface, member, path, body = msg.interface, msg.member, msg.path, msg.body
        ok = lambda sig="", b=[], fds=[]: Message.new_method_return(msg, sig, b, fds)
        if iface == OM and member == "GetManagedObjects":
            return ok("a{oa{sa{sv}}}", [self.objects])
        if iface == PROPS:
            if path not in self.objects:
                raise BlueZError("org.freedesktop.DBus.Error.UnknownObject", path)
            if member == "GetAll":
                return ok("a{sv}", [self.objects[path].get(body[0], {})])
            if member == "Get":
                return ok("v", [self.objects[path][body[0]][body[1]]])
            if member == "Set":
                if body[0] == "org.bluez.Adapter1" and body[1] == "Powered":
                    self.set_powered(path, body[2].value)
                    return ok()
                raise BlueZError("org.bluez.Error.NotSupported", "read-only")
        if iface == "org.bluez.Device1":
            d = self.device_for(path)
            if d is None:
                raise BlueZError("org.freedesktop.DBus.Error.UnknownObject", path)
            if member == "Connect":
                adapter_on = self.objects[d["adapter"]]["org.bluez.Adapter1"]["Powered"].value
                if not adapter_on:
                    raise BlueZError("org.bluez.Error.NotReady", "Resource Not Ready")
                if not d["reachable"]:
                    raise BlueZError("org.bluez.Error.Failed", "Page Timeout")

                def finish():
                    self.link_up(d)
                    self.bus.send(ok())
                asyncio.get_running_loop().call_later(d["connect_delay_ms"] / 1000, finish)
                return True
            if member == "Disconnect":
                self.link_down(d)
                return ok()
        if iface == "org.bluez.GattCharacteristic1":
            if path not in self.chars:
                raise BlueZError("org.freedesktop.DBus.Error.UnknownObject", path)
            address, uuid = self.chars[path]
            d = self.devices[address]
            props = self.objects[path]["org.bluez.GattCharacteristic1"]
            if member == "ReadValue":
                if uuid in d.get("unreadable", []):
                    raise BlueZError("org.bluez.Error.NotPermitted", "Read not permitted")
                return ok("ay", [props["Value"].value])
            if member == "WriteValue":
                value, options = body
                wtype = options["type"].value if "type" in options else ""
                self.writes.append((time.monotonic_ns(), address, uuid, bytes(value), wtype))
                if uuid in d.get("fail_writes", []):
                    raise BlueZError("org.bluez.Error.Failed", "Operation failed with ATT error: 0x0e")
                if uuid == TAP.format(0xA) and value[:1] == b"\x0d":
                    asyncio.get_running_loop().call_soon(self.notify, address, uuid, bytes([0x14, d.get("air_state", 0)]))
                return ok()
            if member == "StartNotify":
                if not props["Notifying"].value:
                    self.set_props(path, "org.bluez.GattCharacteristic1", Notifying=Variant("b", True))
                return ok()
            if member == "StopNotify":
                self.set_props(path, "org.bluez.GattCharacteristic1", Notifying=Variant("b", False))
                return ok()
            if member == "AcquireNotify":
                if uuid in d.get("refuse_acquire", []):
                    raise BlueZError("org.bluez.Error.NotSupported", "Operation is not supported")
                if path in self.sockets:
                    raise BlueZError("org.bluez.Error.InProgress", "already acquired")
                ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                self.sockets[path] = ours
                reply = ok("hq", [0, 185], [theirs.fileno()])
                self.bus.send(reply)
                # dbus-fast sends asynchronously: close our copy of the client end only later.
                asyncio.get_running_loop().call_later(0.5, theirs.close)
                return True
        if iface == "org.tapuinput.FakeBlueZ1":
            return self.control(msg, member, body, ok)
        raise BlueZError("org.freedesktop.DBus.Error.UnknownMethod", f"{iface}.{member}")

    def bus_backlog(self):
        """Bytes we wrote to the bus that dbus-daemon has not read yet (TIOCOUTQ), plus
        anything still queued in dbus-fast. Flooding the bus makes dbus-fast's writer fail
        with EAGAIN, so a back-to-back stream waits for the daemon to catch up."""
        queued = 0
        writer = getattr(self.bus, "_writer", None)
        if writer is not None and (getattr(writer, "buf", None) is not None or getattr(writer, "messages", None)):
            queued = 1 << 20
        sock = getattr(self.bus, "_sock", None)
        if sock is None:
            return queued
        return queued + struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0]

    async def stream(self, address, uuid, values, interval_us):
        """Sends `values` every `interval_us` on an absolute schedule (0: back to back, as
        fast as the bus takes them: each signal is out of our queue before the next is stamped)."""
        await asyncio.sleep(0.1)      # the Stream reply goes out first
        start = time.monotonic_ns()
        for i, v in enumerate(values):
            if interval_us:
                delay = start + i * interval_us * 1000 - time.monotonic_ns()
                if delay > 0:
                    await asyncio.sleep(delay / 1e9)
            self.notify(address, uuid, v, stamps=self.stream_times)
            if not interval_us:
                await asyncio.sleep(0)
                while self.bus_backlog() > 4096:
                    await asyncio.sleep(0.0001)
        self.stream_done = True

    def set_powered(self, adapter, on):
        if not on:
            for d in self.devices.values():
                if d["adapter"] == adapter:
                    self.link_down(d)
        self.set_props(adapter, "org.bluez.Adapter1", Powered=Variant("b", on))

    def control(self, msg, member, body, ok):
        if member == "Notify":
            return ok("s", [self.notify(body[0], body[1], bytes(body[2]))])
        if member == "NotifyMany":        # address, uuid, values: a burst, back to back
            # Sent once the reply is out (blocking sends): the test drains the socket only after its call returns.
            values = [bytes(v) for v in body[2]]
            asyncio.get_running_loop().call_later(0.2, lambda: [self.notify(body[0], body[1], v) for v in values])
            return ok()
        if member == "Stream":            # address, uuid, values, interval_us: paced by the fake
            self.stream_times, self.stream_done = [], False
            values = [bytes(v) for v in body[2]]
            self.stream_task = asyncio.get_running_loop().create_task(self.stream(body[0], body[1], values, body[3]))
            return ok()
        if member == "StreamTimes":       # -> done, send times (ns) so far
            return ok("bat", [self.stream_done, self.stream_times])
        if member == "Writes":
            return ok("a(tssays)", [[[t, a, u, b, ty] for (t, a, u, b, ty) in self.writes]])
        if member == "DropLink":          # address, stays reachable?
            d = self.devices[body[0]]
            d["reachable"] = body[1]
            self.link_down(d)
            return ok()
        if member == "CloseNotify":       # address, uuid: BlueZ drops one notification socket
            for cpath, (addr, uuid) in self.chars.items():
                if addr == body[0] and uuid == body[1] and cpath in self.sockets:
                    self.sockets.pop(cpath).close()
            return ok()
        if member == "Unpair":
            d = self.devices[body[0]]
            self.set_props(d["path"], "org.bluez.Device1", Paired=Variant("b", False))
            return ok()
        if member == "SetReachable":
            self.devices[body[0]]["reachable"] = body[1]
            return ok()
        if member == "LinkUp":            # the device reconnects by itself
            d = self.devices[body[0]]
            d["reachable"] = True
            self.link_up(d)
            return ok()
        if member == "SetPowered":
            self.set_powered(body[0], body[1])
            return ok()
        if member == "Subscriptions":     # uuid -> "socket" | "props"
            out = {}
            for cpath, (addr, uuid) in self.chars.items():
                if addr != body[0]:
                    continue
                if cpath in self.sockets and self.peer_alive(cpath):
                    out[uuid] = "socket"
                elif self.objects[cpath]["org.bluez.GattCharacteristic1"]["Notifying"].value:
                    out[uuid] = "props"
            return ok("a{ss}", [out])
        raise BlueZError("org.freedesktop.DBus.Error.UnknownMethod", member)


class BlueZError(Exception):
    def __init__(self, name, text):
        super().__init__(text)
        self.name, self.text = name, text


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--address", required=True)
    ap.add_argument("--scenario", default="{}")
    args = ap.parse_args()
    bus = await MessageBus(bus_address=args.address, negotiate_unix_fd=True).connect()
    fake = Fake(bus, json.loads(args.scenario))
    bus.add_message_handler(fake.handle)
    await bus.request_name("org.bluez")
    print("READY", flush=True)
    await bus.wait_for_disconnect()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except (KeyboardInterrupt, BrokenPipeError):
        pass
