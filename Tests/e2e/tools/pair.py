#!/usr/bin/env python3
"""Pairs (bonds) and trusts a TAP through the real bluetoothd, as a user would.

Registers a NoInputNoOutput agent (Just Works), powers the adapter, discovers LE devices until
one named `Tap...` (or with --address) shows up, then Device1.Pair, Trusted=true, and by default
disconnects again so the daemon under test starts from "bonded, not connected".
Prints the device's address on stdout. Exit status 0 only if Paired (and Bonded) is true
(with --unbonded: Paired true and Bonded false).

  pair.py [--address AA:BB:...] [--timeout 60] [--stay-connected] [--unbonded]
"""

import argparse
import asyncio
import sys
import time

from dbus_fast.service import ServiceInterface, method

import bluez_util as bz

AGENT_PATH = '/e2e/agent'


class Agent(ServiceInterface):
    """Accepts everything: the virtual TAP does Just Works pairing."""

    def __init__(self):
        super().__init__('org.bluez.Agent1')

    @method()
    def Release(self):
        pass

    @method()
    def RequestPinCode(self, device: 'o') -> 's':
        return '0000'

    @method()
    def DisplayPinCode(self, device: 'o', pincode: 's'):
        pass

    @method()
    def RequestPasskey(self, device: 'o') -> 'u':
        return 0

    @method()
    def DisplayPasskey(self, device: 'o', passkey: 'u', entered: 'q'):
        pass

    @method()
    def RequestConfirmation(self, device: 'o', passkey: 'u'):
        pass

    @method()
    def RequestAuthorization(self, device: 'o'):
        pass

    @method()
    def AuthorizeService(self, device: 'o', uuid: 's'):
        pass

    @method()
    def Cancel(self):
        pass


def say(text):
    print(f'pair: {text}', file=sys.stderr, flush=True)


async def main(args):
    started = time.monotonic()
    bus = await bz.connect()
    bus.export(AGENT_PATH, Agent())
    await bz.call(bus, '/org/bluez', 'org.bluez.AgentManager1', 'RegisterAgent', 'os',
                  [AGENT_PATH, 'NoInputNoOutput'])
    await bz.call(bus, '/org/bluez', 'org.bluez.AgentManager1', 'RequestDefaultAgent', 'o',
                  [AGENT_PATH])

    async def adapter():
        return bz.adapter_path(await bz.objects(bus))

    adapter_path = await bz.wait_for(adapter, args.timeout, what='a Bluetooth adapter')
    if not await bz.get(bus, adapter_path, bz.ADAPTER, 'Powered'):
        try:
            await bz.set_prop(bus, adapter_path, bz.ADAPTER, 'Powered', 'b', True)
        except Exception as e:
            # bluetoothd powers a new adapter on by itself and answers Busy while it does;
            # then there is nothing to do but wait for Powered.
            if 'Busy' not in str(e):
                raise
            say('adapter busy powering on; waiting')
        await bz.wait_for(lambda: bz.get(bus, adapter_path, bz.ADAPTER, 'Powered'), 10,
                          what='adapter powered')
    say(f'adapter {adapter_path} powered')

    async def device():
        return bz.find_device(await bz.objects(bus), args.address)

    path = await device()
    if path is None:
        await bz.call(bus, adapter_path, bz.ADAPTER, 'SetDiscoveryFilter', 'a{sv}',
                      [{'Transport': bz.Variant('s', 'le')}])
        await bz.call(bus, adapter_path, bz.ADAPTER, 'StartDiscovery')
        try:
            path = await bz.wait_for(device, args.timeout, interval=0.2, what='a TAP advertising')
        finally:
            try:
                await bz.call(bus, adapter_path, bz.ADAPTER, 'StopDiscovery')
            except bz.BluezError:
                pass
    address = await bz.get(bus, path, bz.DEVICE, 'Address')
    say(f'found {address} at {path} after {time.monotonic() - started:.1f} s')

    if not await bz.get(bus, path, bz.DEVICE, 'Paired'):
        last = None
        for attempt in range(3):
            try:
                await bz.call(bus, path, bz.DEVICE, 'Pair', timeout=args.timeout)
                break
            except (bz.BluezError, asyncio.TimeoutError) as error:
                last = error
                say(f'Pair attempt {attempt + 1} failed: {error}')
                await asyncio.sleep(1)
        else:
            raise bz.BluezError(f'Pair failed: {last}')
    await bz.set_prop(bus, path, bz.DEVICE, 'Trusted', 'b', True)
    reply = await bz.call(bus, path, bz.PROPS, 'GetAll', 's', [bz.DEVICE])
    every = bz.unwrap(reply.body[0])
    props = {name: every.get(name) for name in ('Paired', 'Bonded', 'Trusted', 'Connected')}
    say(f'{address}: {props} after {time.monotonic() - started:.1f} s')
    if args.unbonded:
        if not (props['Paired'] and props['Bonded'] is False and props['Trusted']):
            raise bz.BluezError(f'not paired-but-unbonded: {props}')
    elif not (props['Paired'] and props['Bonded'] is not False and props['Trusted']):
        raise bz.BluezError(f'not bonded: {props}')
    if not args.stay_connected:
        await bz.disconnect_device(bus, path)
        say('disconnected')
    print(address)


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--address')
    parser.add_argument('--timeout', type=float, default=60)
    parser.add_argument('--stay-connected', action='store_true')
    parser.add_argument('--unbonded', action='store_true',
                        help='expect Paired without Bonded (the TAP refused a bond: tapctl bonding off)')
    try:
        asyncio.run(main(parser.parse_args()))
    except (bz.BluezError, asyncio.TimeoutError) as error:
        say(f'FAILED: {error!r}')
        sys.exit(1)
