#!/usr/bin/env python3
"""A stand-in for logind's sleep signal on the guest's system bus (no systemd there).

Two connections: one owns `org.freedesktop.login1` (allowed for root by the policy file
/usr/share/dbus-1/system.d/org.freedesktop.login1.conf that the systemd package ships), the
other is an ordinary peer. Commands on stdin, one per line; each is answered on stdout:

    sleep true|false      logind emits org.freedesktop.login1.Manager.PrepareForSleep(b)
    impostor true|false   the other peer emits the very same signal (same path, interface, member)
    quit

Prints `ready OWNER-UNIQUE-NAME IMPOSTOR-UNIQUE-NAME` once the name is owned.
"""
import asyncio
import sys

from dbus_fast import BusType, Message, MessageType, RequestNameReply
from dbus_fast.aio import MessageBus

PATH = '/org/freedesktop/login1'
IFACE = 'org.freedesktop.login1.Manager'


def signal(start: bool) -> Message:
    return Message(message_type=MessageType.SIGNAL, path=PATH, interface=IFACE,
                   member='PrepareForSleep', signature='b', body=[start])


async def main() -> None:
    logind = await MessageBus(bus_type=BusType.SYSTEM).connect()
    reply = await logind.request_name('org.freedesktop.login1')
    if reply != RequestNameReply.PRIMARY_OWNER:
        sys.exit(f'fake_logind: could not own org.freedesktop.login1: {reply}')
    impostor = await MessageBus(bus_type=BusType.SYSTEM).connect()
    print(f'ready {logind.unique_name} {impostor.unique_name}', flush=True)
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        words = line.split()
        if not words:
            continue
        if words[0] == 'quit':
            break
        bus = logind if words[0] == 'sleep' else impostor
        await bus.send(signal(words[1] == 'true'))
        # A round trip on the same connection: the signal is on the bus before we answer.
        await bus.call(Message(destination='org.freedesktop.DBus', path='/org/freedesktop/DBus',
                               interface='org.freedesktop.DBus', member='GetId'))
        print(f'sent {words[0]} {words[1]}', flush=True)


asyncio.run(main())
