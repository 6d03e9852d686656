"""Small helpers over dbus-fast for talking to the real bluetoothd in the guest.

Low-level calls only (no introspection) so every tool starts fast under TCG.
"""

import asyncio
import time

from dbus_fast import BusType, Message, MessageType, Variant
from dbus_fast.aio import MessageBus

BLUEZ = 'org.bluez'
ADAPTER = 'org.bluez.Adapter1'
DEVICE = 'org.bluez.Device1'
CHAR = 'org.bluez.GattCharacteristic1'
PROPS = 'org.freedesktop.DBus.Properties'

TAP_SERVICE = 'c3ff0001-1d8b-40fd-a56f-c7bd5d0f3370'


class BluezError(Exception):
    pass


def unwrap(value):
    if isinstance(value, Variant):
        return unwrap(value.value)
    if isinstance(value, dict):
        return {k: unwrap(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unwrap(v) for v in value]
    return value


async def connect(negotiate_unix_fd=False):
    return await MessageBus(bus_type=BusType.SYSTEM, negotiate_unix_fd=negotiate_unix_fd).connect()


async def call(bus, path, interface, member, signature='', body=(), destination=BLUEZ,
               timeout=None):
    message = Message(destination=destination, path=path, interface=interface, member=member,
                      signature=signature, body=list(body))
    coro = bus.call(message)
    reply = await (asyncio.wait_for(coro, timeout) if timeout else coro)
    if reply.message_type == MessageType.ERROR:
        raise BluezError(f'{interface}.{member} on {path}: {reply.error_name}: {reply.body}')
    return reply


async def objects(bus):
    reply = await call(bus, '/', 'org.freedesktop.DBus.ObjectManager', 'GetManagedObjects')
    return unwrap(reply.body[0])


async def get(bus, path, interface, name):
    reply = await call(bus, path, PROPS, 'Get', 'ss', [interface, name])
    return unwrap(reply.body[0])


async def set_prop(bus, path, interface, name, signature, value):
    await call(bus, path, PROPS, 'Set', 'ssv', [interface, name, Variant(signature, value)])


async def wait_for(predicate, timeout, interval=0.1, what='condition'):
    """Polls an async predicate until it returns a truthy value."""
    deadline = time.monotonic() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise BluezError(f'timed out after {timeout:.0f} s waiting for {what}')
        await asyncio.sleep(interval)


def adapter_path(objs):
    for path, interfaces in sorted(objs.items()):
        if ADAPTER in interfaces:
            return path
    return None


def find_device(objs, address=None, name_prefix='Tap'):
    for path, interfaces in objs.items():
        props = interfaces.get(DEVICE)
        if not props:
            continue
        if address and props.get('Address', '').upper() == address.upper():
            return path
        if not address:
            name = props.get('Name') or props.get('Alias') or ''
            if name.startswith(name_prefix) or TAP_SERVICE in props.get('UUIDs', []):
                return path
    return None


def characteristics(objs, device_path):
    """uuid -> (path, flags) for the device's GATT characteristics."""
    found = {}
    for path, interfaces in objs.items():
        props = interfaces.get(CHAR)
        if props and path.startswith(device_path + '/'):
            found[props['UUID'].lower()] = (path, props.get('Flags', []))
    return found


async def add_match(bus, rule):
    await call(bus, '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'AddMatch', 's', [rule],
               destination='org.freedesktop.DBus')


async def connect_device(bus, device_path, timeout=30.0):
    """Device1.Connect (retried: LE connects can race a previous disconnect) and wait for
    ServicesResolved."""
    deadline = time.monotonic() + timeout
    while True:
        if await get(bus, device_path, DEVICE, 'Connected'):
            break
        try:
            await call(bus, device_path, DEVICE, 'Connect',
                       timeout=max(1.0, deadline - time.monotonic()))
            break
        except (BluezError, asyncio.TimeoutError) as error:
            if time.monotonic() > deadline:
                raise BluezError(f'Connect failed: {error}')
            await asyncio.sleep(0.5)

    async def resolved():
        return await get(bus, device_path, DEVICE, 'ServicesResolved')

    await wait_for(resolved, max(1.0, deadline - time.monotonic()), what='ServicesResolved')


async def disconnect_device(bus, device_path, timeout=10.0):
    if await get(bus, device_path, DEVICE, 'Connected'):
        await call(bus, device_path, DEVICE, 'Disconnect', timeout=timeout)

    async def gone():
        return not await get(bus, device_path, DEVICE, 'Connected')

    await wait_for(gone, timeout, what='disconnection')
