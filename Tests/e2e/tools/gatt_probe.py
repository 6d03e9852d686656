#!/usr/bin/env python3
"""A minimal TAP client through BlueZ's D-Bus API, to prove the whole path without the daemon.

Connects the bonded TAP ($TAP_ADDR or --address), checks the GATT table BlueZ resolved (UUIDs and
flags), reads the Device Information revisions and the battery level (encrypted reads), takes the
mouse characteristic with AcquireNotify (fd) and the tap data with StartNotify (PropertiesChanged
signals), waits for the expected notifications, then writes the controller mode `03 0C 00 01`
to NUS RX (write request) and a haptic pattern to c3ff0009 (write command).
Prints one JSON summary on stdout; exit status 1 on any mismatch.
"""

import argparse
import asyncio
import json
import os
import socket
import sys
import time

import bluez_util as bz

TAP = 'c3ff{:04x}-1d8b-40fd-a56f-c7bd5d0f3370'
NUS = '6e40{:04x}-b5a3-f393-e0a9-e50e24dcca9e'
SIG = '0000{:04x}-0000-1000-8000-00805f9b34fb'

# uuid -> flags BlueZ must report (subset)
EXPECTED = {
    TAP.format(0x0005): {'notify'},
    TAP.format(0x0006): {'notify', 'write', 'write-without-response'},
    TAP.format(0x0009): {'write', 'write-without-response'},
    TAP.format(0x000A): {'notify', 'write-without-response', 'read'},
    NUS.format(0x0002): {'write'},
    NUS.format(0x0003): {'notify'},
    SIG.format(0x2A26): {'read'},
    SIG.format(0x2A27): {'read'},
    SIG.format(0x2A19): {'read'},
}


def say(text):
    print(f'gatt_probe: {text}', file=sys.stderr, flush=True)


async def main(args):
    t0 = time.monotonic()
    summary = {'ok': False}
    bus = await bz.connect(negotiate_unix_fd=True)
    objs = await bz.objects(bus)
    device = bz.find_device(objs, args.address)
    if not device:
        raise bz.BluezError(f'no device {args.address} known to BlueZ')
    await bz.connect_device(bus, device, timeout=args.timeout)
    summary['connect_s'] = round(time.monotonic() - t0, 3)
    say(f'connected and resolved in {summary["connect_s"]} s')

    chars = bz.characteristics(await bz.objects(bus), device)
    problems = []
    for uuid, flags in EXPECTED.items():
        if uuid not in chars:
            problems.append(f'missing characteristic {uuid}')
        elif not flags <= set(chars[uuid][1]):
            problems.append(f'{uuid} flags {chars[uuid][1]} lack {sorted(flags - set(chars[uuid][1]))}')
    if problems:
        raise bz.BluezError('; '.join(problems))

    async def read(uuid):
        reply = await bz.call(bus, chars[uuid][0], bz.CHAR, 'ReadValue', 'a{sv}', [{}])
        return bytes(reply.body[0])

    if not args.only_tap:
        summary['fw_rev'] = (await read(SIG.format(0x2A26))).decode()
        summary['hw_rev'] = (await read(SIG.format(0x2A27))).decode()
        summary['battery'] = (await read(SIG.format(0x2A19)))[0]
        say(f'FW {summary["fw_rev"]} HW {summary["hw_rev"]} battery {summary["battery"]}%')

    # Mouse data through AcquireNotify: a SOCK_SEQPACKET fd, one packet per notification.
    mouse_packets = []
    loop = asyncio.get_running_loop()
    mouse_sock = None
    if not args.only_tap:
        mouse_path = chars[TAP.format(0x0006)][0]
        reply = await bz.call(bus, mouse_path, bz.CHAR, 'AcquireNotify', 'a{sv}', [{}])
        fd = reply.unix_fds[reply.body[0]]
        summary['acquire_notify_mtu'] = reply.body[1]
        mouse_sock = socket.socket(fileno=fd)
        mouse_sock.setblocking(False)

        def on_mouse():
            try:
                mouse_packets.append(mouse_sock.recv(512).hex())
            except BlockingIOError:
                pass

        loop.add_reader(mouse_sock.fileno(), on_mouse)

    # Tap data through StartNotify: PropertiesChanged(Value) signals on the characteristic.
    tap_path = chars[TAP.format(0x0005)][0]
    tap_values = []

    def on_message(message):
        if (message.member == 'PropertiesChanged' and message.path == tap_path
                and message.body and message.body[0] == bz.CHAR):
            changed = message.body[1]
            if 'Value' in changed:
                tap_values.append(bytes(changed['Value'].value).hex())

    bus.add_message_handler(on_message)
    await bz.add_match(bus, f"type='signal',sender='org.bluez',path='{tap_path}',"
                            f"interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
    await bz.call(bus, tap_path, bz.CHAR, 'StartNotify')
    t_sub = time.monotonic()
    say('subscribed (mouse: AcquireNotify, tap: StartNotify)')

    async def got_all():
        return len(tap_values) >= len(args.expect_tap) and len(mouse_packets) >= len(args.expect_mouse)

    try:
        await bz.wait_for(got_all, args.timeout, interval=0.05, what='the scripted notifications')
    finally:
        summary['tap'] = tap_values
        summary['mouse'] = mouse_packets
    summary['notifications_s'] = round(time.monotonic() - t_sub, 3)
    if tap_values[:len(args.expect_tap)] != [h.lower() for h in args.expect_tap]:
        raise bz.BluezError(f'tap data {tap_values} != expected {args.expect_tap}')
    if mouse_packets[:len(args.expect_mouse)] != [h.lower() for h in args.expect_mouse]:
        raise bz.BluezError(f'mouse data {mouse_packets} != expected {args.expect_mouse}')
    say(f'got {len(tap_values)} tap + {len(mouse_packets)} mouse notifications')

    if args.only_tap:
        try:
            await bz.call(bus, tap_path, bz.CHAR, 'StopNotify', timeout=5)
        except (bz.BluezError, asyncio.TimeoutError) as error:
            say(f'StopNotify: {error}')  # the TAP may be dropping the link already
        summary['ok'] = True
        summary['total_s'] = round(time.monotonic() - t0, 3)
        print(json.dumps(summary))
        return

    nus_rx = chars[NUS.format(0x0002)][0]
    await bz.call(bus, nus_rx, bz.CHAR, 'WriteValue', 'aya{sv}',
                  [bytes.fromhex('030c0001'), {'type': bz.Variant('s', 'request')}])
    ui = chars[TAP.format(0x0009)][0]
    await bz.call(bus, ui, bz.CHAR, 'WriteValue', 'aya{sv}',
                  [bytes.fromhex('0002' + '0a' + '00' * 17), {'type': bz.Variant('s', 'command')}])
    summary['wrote'] = ['nus_rx 030c0001 request', 'ui 00020a.. command']
    say('wrote the controller mode and a haptic')

    await bz.call(bus, tap_path, bz.CHAR, 'StopNotify')
    loop.remove_reader(mouse_sock.fileno())
    mouse_sock.close()
    if not args.stay_connected:
        await bz.disconnect_device(bus, device)
    summary['ok'] = True
    summary['total_s'] = round(time.monotonic() - t0, 3)
    print(json.dumps(summary))


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--address', default=os.environ.get('TAP_ADDR'))
    parser.add_argument('--expect-tap', action='append', default=[])
    parser.add_argument('--expect-mouse', action='append', default=[])
    parser.add_argument('--timeout', type=float, default=30)
    parser.add_argument('--stay-connected', action='store_true')
    parser.add_argument('--only-tap', action='store_true',
                        help='only StartNotify on tap data and wait (no reads, no AcquireNotify, no writes); stays connected')
    try:
        asyncio.run(main(parser.parse_args()))
    except (bz.BluezError, asyncio.TimeoutError) as error:
        say(f'FAILED: {error!r}')
        sys.exit(1)
