#!/usr/bin/env python3
"""Virtual TAP Straps for the end-to-end tests (runs inside the VM; see README.md).

One process, one asyncio loop, bumble controllers on one in-process link:
  * the *host-side* controller is attached to the kernel through /dev/vhci and appears as hci0
    to the real bluetoothd;
  * one *TAP-side* controller per TAP (`--taps N`, default 2), each carrying a bumble Device: an
    LE peripheral advertising as `Tap_...` with the TAP GATT table (tap-protocol.md §1), Just
    Works pairing with bonding, and encryption required on the characteristics the real firmware
    encrypts.
All controllers and the link come from bumble_fixes.py (two corrections for a Linux central).

TAP 1 is `--name`/`--address` (Tap_E2E0001, F0:E2:E0:00:00:01) and advertises from the start.
TAP N > 1 is `Tap_E2E000N` at `F0:E2:E0:00:00:0N`, silent until its `advertise` command (so the
scenarios that use one TAP never see it), with its own control socket and event log: the paths of
TAP 1 with N before the extension (`tap.sock` -> `tap2.sock`, `tap-events.jsonl` ->
`tap-events2.jsonl`; tapctl.py --tap N finds them the same way).

The TAP plays scripts of notifications (format below) and logs everything that happens to it as
JSON lines (`--events FILE`): every write a central makes (with its ATT opcode), subscriptions,
connections, pairing, notifications sent, script progress. Each line has `t`, the monotonic clock
(`time.monotonic()`, CLOCK_MONOTONIC, the same clock for every process in the guest).

Script format (`.tap` files): one command per line, `#` starts a comment.
  start COND             when the script starts; COND is `now` or conditions joined with `+`:
                         `subscribed` (tap data notifications enabled), `subscribed:NAME`
                         (that characteristic), `mode` (the central wrote a controller mode,
                         `03 0C 00 xx` with xx != 0, to NUS RX since it connected).
                         Default: `subscribed+mode` (what a real client does).
  DELAY NAME HEX...      after DELAY ms, notify characteristic NAME with the bytes (spaces allowed)
  DELAY disconnect       after DELAY ms, the TAP drops the link and stops advertising
  DELAY reconnect [MS]   advertise again and wait (default 30000 ms) until the central is back and
                         the start condition holds again
  DELAY wait-write NAME HEX [Nms]  wait (default 30000ms) until the central writes exactly these
                         bytes to NAME (counting from when this line starts)
  DELAY mark TEXT        log a `mark` event
  DELAY @N COMMAND ...   a notify or `disconnect` on TAP N instead (one script drives both hands
                         with exact relative timing; the line is logged in TAP N's event log too)
NAME is one of the aliases below (tap, mouse, ui, air, nus_rx, nus_tx, battery, ...) or a UUID.
DELAY is counted from the end of the previous line.

Control socket (`--ctl PATH`, one command per line, one JSON answer per line; tapctl.py speaks it):
  play FILE | stop-script | wait-done [SECONDS] | status | notify NAME HEX | disconnect | advertise
  | reset (stop the script, advertise when not connected) | quit (every TAP)
  | silence (stop the script, drop the link, stop advertising until `advertise`)
  | bonding on|off (whether the next pairing asks for a bond; off: the central pairs, keeps no keys)
  | forget-mode (the TAP falls back to Text mode on the same link, as its firmware does when the
    mode is not refreshed) | powercycle [MS] (the TAP reboots: the link is lost with a supervision
    timeout, the mode is forgotten, it advertises again after MS, default 1000)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bumble import gatt, hci  # noqa: E402
from bumble.device import Device, DeviceConfiguration  # noqa: E402
from bumble.pairing import PairingConfig, PairingDelegate  # noqa: E402
from bumble.transport import open_transport  # noqa: E402

from bumble.controller import Controller as BumbleController  # noqa: E402
from bumble.link import LocalLink as BumbleLocalLink  # noqa: E402

from bumble_fixes import FixedController, FixedLocalLink  # noqa: E402

TAP = 'c3ff{:04x}-1d8b-40fd-a56f-c7bd5d0f3370'
NUS = '6e40{:04x}-b5a3-f393-e0a9-e50e24dcca9e'

P = gatt.Characteristic.Properties
A = gatt.Characteristic  # permissions live on Attribute, re-exported by Characteristic

# name -> (uuid, properties, needs encryption for read/write, initial value)
CHARACTERISTICS = {
    'settings': (TAP.format(0x0002), P.READ | P.WRITE, True, b'\x00'),
    'name': (TAP.format(0x0003), P.READ | P.WRITE, True, None),
    'tap': (TAP.format(0x0005), P.NOTIFY, False, b''),
    'mouse': (TAP.format(0x0006), P.NOTIFY | P.WRITE | P.WRITE_WITHOUT_RESPONSE, False, b''),
    'ui': (TAP.format(0x0009), P.WRITE | P.WRITE_WITHOUT_RESPONSE, True, None),
    'air': (TAP.format(0x000A), P.NOTIFY | P.WRITE_WITHOUT_RESPONSE | P.READ, True, b'\x14\x00'),
    'nus_rx': (NUS.format(0x0002), P.WRITE | P.WRITE_WITHOUT_RESPONSE, True, None),
    'nus_tx': (NUS.format(0x0003), P.NOTIFY, False, b''),
    'manufacturer': ('2A29', P.READ, True, b'Tap Systems Inc.'),
    'serial': ('2A25', P.READ, True, b'E2E0000001'),
    'hw_rev': ('2A27', P.READ, True, None),
    'fw_rev': ('2A26', P.READ, True, None),
    'sw_rev': ('2A28', P.READ, True, b'1.0.0'),
    'battery': ('2A19', P.READ | P.NOTIFY, True, bytes([87])),
    # v2 framed protocol (tap-protocol.md §2.6/§3.7): only with --v2; their presence means v2.
    'v2_read': (TAP.format(0x000E), P.NOTIFY, False, b''),
    'v2_write': (TAP.format(0x000F), P.WRITE, True, None),
}
V2_CHARACTERISTICS = ['v2_read', 'v2_write']
# HID over GATT (only with --hid), as a real TAP registers it (tap-protocol.md §11): it is what
# makes BlueZ's HoG plugin create the TAP's kernel input device (uhid, bus 0x0005) on connection.
# Report map: keyboard (report 1), consumer (2), mouse with wheel (3); the TAP never sends on them
# in controller mode, so only the map's shape matters.
HID_REPORT_MAP = bytes.fromhex(
    '05010906a1018501050719e029e71500250175019508810295017508810195067508150025650507190029658100c0'
    '050c0901a1018502150026ff0319002aff03751095018100c0'
    '05010902a10185030901a10005091901290315002501950375018102950175058101'
    '05010930093109381581257f750895038106c0c0'
)
CHARACTERISTICS.update({
    'hid_info': ('2A4A', P.READ, True, bytes([0x11, 0x01, 0x00, 0x02])),  # HID 1.11, normally connectable
    'report_map': ('2A4B', P.READ, True, HID_REPORT_MAP),
    'hid_cp': ('2A4C', P.WRITE_WITHOUT_RESPONSE, True, None),
    'protocol_mode': ('2A4E', P.READ | P.WRITE_WITHOUT_RESPONSE, True, b'\x01'),  # report mode
    'hid_keyboard': ('2A4D', P.READ | P.NOTIFY, True, bytes(8)),
    'hid_consumer': ('2A4D', P.READ | P.NOTIFY, True, bytes(2)),
    'hid_mouse': ('2A4D', P.READ | P.NOTIFY, True, bytes(4)),
    'pnp_id': ('2A50', P.READ, True, bytes.fromhex('021519eeee0100')),  # as a real TAP's
})
HID_REPORT_IDS = {'hid_keyboard': 1, 'hid_consumer': 2, 'hid_mouse': 3}  # all input reports
HID_SERVICE = ['hid_info', 'report_map', 'hid_cp', 'protocol_mode', 'hid_keyboard', 'hid_consumer', 'hid_mouse']
SERVICES = {
    TAP.format(0x0001): ['settings', 'name', 'tap', 'mouse', 'ui', 'air'],
    NUS.format(0x0001): ['nus_rx', 'nus_tx'],
    '180A': ['manufacturer', 'serial', 'hw_rev', 'fw_rev', 'sw_rev'],
    '180F': ['battery'],
}


def norm_uuid(text: str) -> str:
    text = text.lower()
    if len(text) == 4:
        return f'0000{text}-0000-1000-8000-00805f9b34fb'
    return text


def ad_struct(ad_type: int, payload: bytes) -> bytes:
    return bytes([len(payload) + 1, ad_type]) + payload


def parse_hex(tokens: list[str]) -> bytes:
    return bytes.fromhex(''.join(tokens).replace(':', '').replace(',', ''))


class EventLog:
    def __init__(self, path: str | None):
        self.file = open(path, 'a', buffering=1) if path else None

    def __call__(self, event: str, **fields) -> None:
        record = {'t': round(time.monotonic(), 6), 'event': event, **fields}
        line = json.dumps(record)
        if self.file:
            self.file.write(line + '\n')
        logging.info('%s', line)


class ScriptError(Exception):
    pass


def numbered(path: str | None, n: int) -> str | None:
    """TAP n's control socket or event log: TAP 1's path with n before the extension."""
    if path is None or n == 1:
        return path
    head, dot, ext = path.rpartition('.')
    return f'{head}{n}.{ext}' if dot and '/' not in ext else f'{path}{n}'


class VirtualTap:
    def __init__(self, args, log: EventLog, number: int = 1, name: str | None = None,
                 address: str | None = None, ctl: str | None = None):
        self.args = args
        self.log = log
        self.number = number
        self.name = name or args.name
        self.address = address or args.address
        self.ctl = ctl if number > 1 else args.ctl
        self.peers: dict[int, VirtualTap] = {number: self}
        self.quit: asyncio.Event | None = None
        self.device: Device | None = None
        self.chars: dict[str, gatt.Characteristic] = {}
        self.by_handle: dict[int, str] = {}
        self.uuid_to_name: dict[str, str] = {}
        self.connection = None
        self.subscribed: set[str] = set()
        self.mode_written = False
        self.last_write_op: dict[int, str] = {}
        self.advertise_on_disconnect = True
        # Pairing's AuthReq bonding flag: off, the central pairs but keeps no keys (Bonded false).
        self.bonding = True
        self.changed = asyncio.Event()
        self.script_task: asyncio.Task | None = None
        self.script_result: dict | None = None
        self.script_done = asyncio.Event()
        self.script_done.set()
        self.writes: list[tuple[str, bytes]] = []

    # ---- state changes ------------------------------------------------------------------
    def _poke(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()

    async def wait_until(self, predicate, timeout: float | None) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not predicate():
            event = self.changed
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise asyncio.TimeoutError
            await asyncio.wait_for(event.wait(), remaining)

    def condition_holds(self, cond: str) -> bool:
        if cond == 'now':
            return True
        for part in cond.split('+'):
            part = part.strip()
            if part == 'subscribed':
                part = 'subscribed:tap'
            if part.startswith('subscribed:'):
                if self.connection is None or part.split(':', 1)[1] not in self.subscribed:
                    return False
            elif part == 'mode':
                if self.connection is None or not self.mode_written:
                    return False
            else:
                raise ScriptError(f'unknown start condition {part!r}')
        return True

    # ---- GATT -----------------------------------------------------------------------------
    def build_gatt(self) -> list[gatt.Service]:
        values = {
            'name': self.name.encode(),
            'hw_rev': self.args.hw_rev.encode(),
            'fw_rev': self.args.fw_rev.encode(),
        }
        services = []
        table = dict(SERVICES)
        if self.args.hid:
            table['180A'] = table['180A'] + ['pnp_id']
            table['1812'] = HID_SERVICE
        for service_uuid, names in table.items():
            characteristics = []
            if service_uuid == TAP.format(0x0001) and self.args.v2:
                names = names + V2_CHARACTERISTICS
            for name in names:
                uuid, props, encrypted, initial = CHARACTERISTICS[name]
                if self.args.no_encryption:
                    encrypted = False
                perms = 0
                if props & P.READ:
                    perms |= A.READ_REQUIRES_ENCRYPTION if encrypted else A.READABLE
                if props & (P.WRITE | P.WRITE_WITHOUT_RESPONSE):
                    perms |= A.WRITE_REQUIRES_ENCRYPTION if encrypted else A.WRITEABLE
                if not perms:
                    perms = A.READABLE
                value = initial if initial is not None else values.get(name, b'')
                store = {'value': value}

                def read(connection, name=name, store=store):
                    self.log('read', char=name, uuid=CHARACTERISTICS[name][0])
                    return store['value']

                def write(connection, data, name=name, store=store):
                    self.on_write(name, bytes(data))
                    if CHARACTERISTICS[name][1] & P.READ:
                        store['value'] = bytes(data)

                descriptors = []
                if name in HID_REPORT_IDS:  # Report Reference: report id, type 1 = input
                    descriptors.append(gatt.Descriptor(
                        gatt.GATT_REPORT_REFERENCE_DESCRIPTOR,
                        A.READ_REQUIRES_ENCRYPTION if encrypted else A.READABLE,
                        bytes([HID_REPORT_IDS[name], 1])))
                characteristic = gatt.Characteristic(
                    uuid, props, perms, gatt.CharacteristicValue(read=read, write=write),
                    descriptors=descriptors,
                )
                self.chars[name] = characteristic
                self.uuid_to_name[norm_uuid(uuid)] = name
                characteristics.append(characteristic)
            services.append(gatt.Service(service_uuid, characteristics))
        return services

    def resolve(self, name: str) -> str:
        if name in self.chars:
            return name
        uuid = norm_uuid(name)
        if uuid in self.uuid_to_name:
            return self.uuid_to_name[uuid]
        short = name.lower()
        for full, alias in self.uuid_to_name.items():
            if (len(short) >= 8 and full.startswith(short)) or (
                len(short) == 4 and (full.startswith(f'c3ff{short}') or full.startswith(f'6e40{short}'))
            ):
                return alias
        raise ScriptError(f'unknown characteristic {name!r}')

    def on_write(self, name: str, data: bytes) -> None:
        handle = self.chars[name].handle
        op = self.last_write_op.get(handle, 'unknown')
        self.log('write', char=name, uuid=CHARACTERISTICS[name][0], hex=data.hex(), op=op)
        self.writes.append((name, data))
        if name == 'nus_rx' and len(data) >= 4 and data[0] == 0x03 and data[1] == 0x0C:
            self.mode_written = data[3] != 0
        if name == 'air' and data[:1] == b'\x0d':
            # Real firmware answers a state request with 14 <state>.
            asyncio.get_running_loop().create_task(self.notify('air', b'\x14\x00'))
        self._poke()

    async def notify(self, name: str, data: bytes) -> int:
        characteristic = self.chars[name]
        delivered = 1 if name in self.subscribed and self.connection is not None else 0
        if delivered:
            await self.device.notify_subscribers(characteristic, data)
        self.log('notify', char=name, hex=data.hex(), delivered=bool(delivered))
        return delivered

    # ---- connection handling -------------------------------------------------------------------
    def on_connection(self, connection) -> None:
        self.connection = connection
        self.subscribed = set()
        self.mode_written = False
        self.log('connected', peer=str(connection.peer_address))
        connection.on('disconnection', lambda reason: self.on_disconnection(connection, reason))
        connection.on('pairing', lambda keys: self.log('paired', peer=str(connection.peer_address)))
        connection.on(
            'pairing_failure', lambda reason: self.log('pairing_failed', reason=str(reason))
        )
        connection.on(
            'connection_encryption_change',
            lambda *a: self.log('encryption', enabled=bool(connection.is_encrypted)),
        )
        self._poke()

    def on_disconnection(self, connection, reason) -> None:
        if self.connection is connection:
            self.connection = None
            self.subscribed = set()
            self.mode_written = False
        self.log('disconnected', reason=int(reason) if reason is not None else None)
        if self.advertise_on_disconnect:
            asyncio.get_running_loop().create_task(self.advertise())
        self._poke()

    def on_subscription(self, connection, characteristic, notify_enabled, indicate_enabled) -> None:
        name = self.by_handle.get(characteristic.handle, str(characteristic.uuid))
        if notify_enabled or indicate_enabled:
            self.subscribed.add(name)
        else:
            self.subscribed.discard(name)
        self.log('subscription', char=name, notify=bool(notify_enabled), indicate=bool(indicate_enabled))
        self._poke()

    async def advertise(self) -> None:
        if self.device.is_advertising or self.connection is not None:
            return
        await self.device.start_advertising(
            advertising_data=self.adv_data, scan_response_data=self.scan_data, auto_restart=False
        )
        self.log('advertising', address=str(self.device.random_address))

    async def silence(self) -> None:
        """No script, no link, no advertising: as if switched off (until `advertise`)."""
        await self.stop_script()
        self.advertise_on_disconnect = False
        if self.device.is_advertising:
            await self.device.stop_advertising()
        await self.drop_link()
        self.log('silenced')

    async def drop_link(self) -> None:
        if self.connection is not None:
            await self.connection.disconnect(
                reason=hci.HCI_REMOTE_USER_TERMINATED_CONNECTION_ERROR
            )

    # ---- scripts -----------------------------------------------------------------------------
    def load_script(self, path: str) -> tuple[str, list[tuple[float, list[str], int]]]:
        start = 'subscribed+mode'
        steps = []
        with open(path) as f:
            for number, raw in enumerate(f, 1):
                line = raw.split('#', 1)[0].strip()
                if not line:
                    continue
                words = line.split()
                if words[0] == 'start':
                    start = ' '.join(words[1:]) or 'now'
                    continue
                try:
                    delay = float(words[0])
                except ValueError:
                    raise ScriptError(f'{path}:{number}: expected "DELAY_MS COMMAND ...": {raw.strip()!r}')
                if len(words) < 2:
                    raise ScriptError(f'{path}:{number}: missing command')
                command = words[1]
                try:
                    self._check_step(command, words)
                except (ValueError, ScriptError) as error:
                    raise ScriptError(f'{path}:{number}: {error}') from None
                steps.append((delay, words[1:], number))
        self.condition_holds(start)  # validates
        return start, steps

    def _check_step(self, command: str, words: list[str]) -> None:
        if command.startswith('@'):
            peer = self.peers.get(int(command[1:]))
            if peer is None:
                raise ScriptError(f'no TAP {command[1:]} (there are {len(self.peers)})')
            if len(words) < 3:
                raise ScriptError('@N COMMAND ...')
            if words[2] != 'disconnect':
                peer.resolve(words[2])
                parse_hex(words[3:])
            return
        if command == 'wait-write':
            if len(words) < 4:
                raise ScriptError('wait-write NAME HEX [Nms]')
            self.resolve(words[2])
            parse_hex([w for w in words[3:] if not w.endswith('ms')])
        elif command == 'reconnect':
            if len(words) > 2:
                float(words[2])
        elif command not in ('disconnect', 'mark'):
            self.resolve(command)
            parse_hex(words[2:])

    async def run_script(self, path: str, start: str, steps) -> None:
        self.log('script_armed', script=path, start=start)
        try:
            await self.wait_until(lambda: self.condition_holds(start), None)
            self.log('script_started', script=path)
            for delay, words, number in steps:
                if delay > 0:
                    await asyncio.sleep(delay / 1000.0)
                command, rest = words[0], words[1:]
                if command.startswith('@'):
                    peer = self.peers[int(command[1:])]
                    peer.log('mark', text=f'driven by TAP {self.number}: {" ".join(rest)}')
                    if rest[0] == 'disconnect':
                        peer.advertise_on_disconnect = False
                        await peer.drop_link()
                        await peer.wait_until(lambda: peer.connection is None, 10)
                    else:
                        await peer.notify(peer.resolve(rest[0]), parse_hex(rest[1:]))
                elif command == 'disconnect':
                    self.advertise_on_disconnect = False
                    await self.drop_link()
                    await self.wait_until(lambda: self.connection is None, 10)
                elif command == 'reconnect':
                    timeout = float(rest[0]) / 1000.0 if rest else 30.0
                    self.advertise_on_disconnect = True
                    await self.advertise()
                    try:
                        await self.wait_until(
                            lambda: self.connection is not None and self.condition_holds(start),
                            timeout,
                        )
                    except asyncio.TimeoutError:
                        raise ScriptError(f'line {number}: central did not come back in {timeout:.0f} s')
                    self.log('reconnected')
                elif command == 'wait-write':
                    name = self.resolve(rest[0])
                    hex_tokens = rest[1:]
                    timeout = 30.0
                    if hex_tokens and hex_tokens[-1].endswith('ms'):
                        timeout = float(hex_tokens.pop()[:-2]) / 1000.0
                    want = parse_hex(hex_tokens)
                    seen = len(self.writes)
                    try:
                        await self.wait_until(
                            lambda: any(n == name and d == want for n, d in self.writes[seen:]),
                            timeout,
                        )
                    except asyncio.TimeoutError:
                        raise ScriptError(f'line {number}: no write of {want.hex()} to {name}')
                elif command == 'mark':
                    self.log('mark', text=' '.join(rest))
                else:
                    await self.notify(self.resolve(command), parse_hex(rest))
            self.script_result = {'ok': True}
            self.log('script_done', script=path)
        except asyncio.CancelledError:
            self.script_result = {'ok': False, 'error': 'cancelled'}
            self.log('script_cancelled', script=path)
            raise
        except Exception as error:  # noqa: BLE001 - reported to the test
            self.script_result = {'ok': False, 'error': str(error)}
            self.log('script_error', script=path, error=str(error))
        finally:
            self.script_done.set()

    async def play(self, path: str) -> dict:
        start, steps = self.load_script(path)
        await self.stop_script()
        self.script_done = asyncio.Event()
        self.script_result = None
        self.script_task = asyncio.get_running_loop().create_task(self.run_script(path, start, steps))
        return {'ok': True, 'start': start, 'steps': len(steps)}

    async def stop_script(self) -> None:
        if self.script_task and not self.script_task.done():
            self.script_task.cancel()
            try:
                await self.script_task
            except asyncio.CancelledError:
                pass

    # ---- control socket -------------------------------------------------------------------------
    async def handle_command(self, line: str) -> dict:
        words = line.split()
        if not words:
            return {'ok': False, 'error': 'empty command'}
        command, rest = words[0], words[1:]
        if command == 'play':
            return await self.play(' '.join(rest))
        if command == 'stop-script':
            await self.stop_script()
            return {'ok': True}
        if command == 'wait-done':
            timeout = float(rest[0]) if rest else None
            try:
                await asyncio.wait_for(self.script_done.wait(), timeout)
            except asyncio.TimeoutError:
                return {'ok': False, 'error': 'script still running'}
            return self.script_result or {'ok': False, 'error': 'no script played'}
        if command == 'status':
            return {
                'ok': True,
                'address': str(self.device.random_address),
                'name': self.name,
                'tap': self.number,
                'connected': self.connection is not None,
                'peer': str(self.connection.peer_address) if self.connection else None,
                'encrypted': bool(self.connection and self.connection.is_encrypted),
                'subscribed': sorted(self.subscribed),
                'mode': self.mode_written,
                'advertising': bool(self.device.is_advertising),
                'script_running': not self.script_done.is_set(),
            }
        if command == 'notify':
            return {'ok': True, 'delivered': await self.notify(self.resolve(rest[0]), parse_hex(rest[1:]))}
        if command == 'disconnect':
            self.advertise_on_disconnect = True
            await self.drop_link()
            return {'ok': True}
        if command == 'reset':
            # Between scenarios: no script, advertising again whenever not connected.
            await self.stop_script()
            self.advertise_on_disconnect = True
            if self.connection is None:
                await self.advertise()
            return {'ok': True}
        if command == 'bonding':
            # The next pairing asks for a bond, or not (`bonding off`: paired but not bonded).
            self.bonding = rest[:1] != ['off']
            self.log('bonding', on=self.bonding)
            return {'ok': True, 'bonding': self.bonding}
        if command == 'forget-mode':
            self.mode_written = False
            self.log('mode_forgotten')
            self._poke()
            return {'ok': True}
        if command == 'powercycle':
            delay = float(rest[0]) / 1000 if rest else 1.0
            self.advertise_on_disconnect = False
            self.mode_written = False
            self.log('powercycle', delay_ms=int(delay * 1000))
            if self.connection is not None:
                await self.connection.disconnect(reason=hci.HCI_CONNECTION_TIMEOUT_ERROR)

            def come_back():
                self.advertise_on_disconnect = True
                asyncio.get_running_loop().create_task(self.advertise())
            asyncio.get_running_loop().call_later(delay, come_back)
            return {'ok': True}
        if command == 'advertise':
            self.advertise_on_disconnect = True
            await self.advertise()
            return {'ok': True}
        if command == 'silence':
            await self.silence()
            return {'ok': True}
        if command == 'quit':
            asyncio.get_running_loop().call_later(0.1, self.quit.set)
            return {'ok': True}
        return {'ok': False, 'error': f'unknown command {command!r}'}

    async def on_client(self, reader, writer) -> None:
        try:
            while line := await reader.readline():
                try:
                    answer = await self.handle_command(line.decode().strip())
                except Exception as error:  # noqa: BLE001
                    answer = {'ok': False, 'error': str(error)}
                writer.write((json.dumps(answer) + '\n').encode())
                await writer.drain()
        finally:
            writer.close()

    # ---- main ---------------------------------------------------------------------------------
    async def start(self, link, advertise: bool) -> None:
        """Its controller on `link`, its Device with the GATT table, its control socket."""
        tap_controller = FixedController(f'tap{self.number}', link=link)

        config = DeviceConfiguration()
        config.name = self.name
        config.address = hci.Address(self.address)
        config.keystore = None
        self.device = Device.from_config_with_hci(config, tap_controller, tap_controller)
        self.device.add_services(self.build_gatt())
        for name, characteristic in self.chars.items():
            self.by_handle[characteristic.handle] = name
        self.device.pairing_config_factory = lambda connection: PairingConfig(
            sc=True, mitm=False, bonding=self.bonding,
            delegate=PairingDelegate(io_capability=PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT),
        )
        self.device.on('connection', self.on_connection)
        self.device.on('characteristic_subscription', self.on_subscription)

        # Know which ATT opcode carried each write (request vs command).
        server = self.device.gatt_server
        original = server.on_gatt_pdu

        def on_gatt_pdu(bearer, pdu):
            if pdu.name in ('ATT_WRITE_REQUEST', 'ATT_WRITE_COMMAND'):
                self.last_write_op[pdu.attribute_handle] = (
                    'request' if pdu.name == 'ATT_WRITE_REQUEST' else 'command'
                )
            return original(bearer, pdu)

        server.on_gatt_pdu = on_gatt_pdu

        self.adv_data = ad_struct(0x01, b'\x06') + ad_struct(0x09, self.name.encode())
        tap_uuid = bytes.fromhex(TAP.format(0x0001).replace('-', ''))[::-1]
        self.scan_data = ad_struct(0x07, tap_uuid)

        await self.device.power_on()
        if self.ctl:
            if os.path.exists(self.ctl):
                os.unlink(self.ctl)
            await asyncio.start_unix_server(self.on_client, path=self.ctl)
        self.advertise_on_disconnect = advertise
        if advertise:
            await self.advertise()


async def run(args) -> None:
    """The host-side controller on /dev/vhci and `args.taps` TAPs on one link, until `quit`."""
    # E2E_BUMBLE_UNFIXED=link,event turns the corrections off, to show they are needed.
    unfixed = os.environ.get('E2E_BUMBLE_UNFIXED', '').split(',')
    link = BumbleLocalLink() if 'link' in unfixed else FixedLocalLink()
    host_controller_class = BumbleController if 'event' in unfixed else FixedController
    transport = await open_transport(args.transport)
    host_controller_class(
        'vhci', host_source=transport.source, host_sink=transport.sink, link=link,
        public_address=args.host_address,
    )
    quit_event = asyncio.Event()
    taps: dict[int, VirtualTap] = {}
    for n in range(1, args.taps + 1):
        if n == 1:
            tap = VirtualTap(args, EventLog(args.events))
        else:
            tap = VirtualTap(args, EventLog(numbered(args.events, n)), number=n,
                             name=f'Tap_E2E{n:04d}', address=f'F0:E2:E0:00:00:{n:02X}',
                             ctl=numbered(args.ctl, n))
        tap.quit = quit_event
        tap.peers = taps          # shared: every TAP's script can drive the others (@N)
        taps[n] = tap
    # The others first: TAP 1's `ready` (what the guest set-up waits for) means all are up.
    for n in sorted(taps, reverse=True):
        await taps[n].start(link, advertise=(n == 1))
    if args.script:
        await taps[1].play(args.script)
    for n in sorted(taps, reverse=True):
        taps[n].log('ready', address=str(taps[n].device.random_address), name=taps[n].name,
                    pid=os.getpid(), tap=n)
    await quit_event.wait()
    for tap in taps.values():
        tap.log('quit')
    transport.close() if hasattr(transport, 'close') else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--transport', default='vhci', help='bumble transport for the host side (default vhci)')
    parser.add_argument('--name', default='Tap_E2E0001')
    parser.add_argument('--address', default='F0:E2:E0:00:00:01', help='TAP static random address')
    parser.add_argument('--host-address', default='00:1B:DC:E2:E0:01', help='public address of hci0')
    parser.add_argument('--fw-rev', default='2.4.30')
    parser.add_argument('--hw-rev', default='3.3.0')
    parser.add_argument('--no-encryption', action='store_true', help='do not require a bond for any characteristic')
    parser.add_argument('--v2', action='store_true', help='also offer the v2 framed characteristics c3ff000e/000f')
    parser.add_argument('--hid', action='store_true',
                        help='also offer HID over GATT (0x1812) like a real TAP, so BlueZ creates its input device')
    parser.add_argument('--script', help='play this script from the start')
    parser.add_argument('--ctl', help='unix socket for tapctl.py')
    parser.add_argument('--events', help='JSON lines event log (appended)')
    parser.add_argument('--taps', type=int, default=2, choices=range(1, 10),
                        help='how many TAPs (default 2; TAP N > 1 is silent until told to advertise)')
    parser.add_argument('--debug', action='store_true')
    args = parser.parse_args()
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.INFO,
        format='%(asctime)s %(name)s %(levelname)s %(message)s',
    )
    asyncio.run(run(args))


if __name__ == '__main__':
    main()
