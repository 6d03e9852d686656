"""Two small corrections to bumble 0.0.236's in-process radio, needed when Linux is the central.

Both are subclasses (no patching of bumble's modules); virtual_tap.py builds its link and its
two controllers from them.

1. `FixedLocalLink.send_acl_data`: bumble's LocalLink labels every LE ACL PDU with the sending
   controller's *current random address*. Linux scans with a non-resolvable private address
   (set as the controller's random address) but then connects with its *public* address, so the
   peripheral keys that connection by the public address and drops every ATT PDU that arrives
   labelled with the scan address ("no connection for ..."): GATT discovery never completes.
   We label the PDU with the address the sender's connection to that peer actually uses
   (`Connection.self_address`), which is what a radio would put on the air.

2. `FixedController`: bumble's controller always reports a new LE link with the legacy
   *LE Connection Complete* event. Linux (6.1) enables and waits for *LE Enhanced Connection
   Complete* instead, because the controller claims LL privacy and extended advertising; the
   legacy event is ignored, the kernel's hci_sync queue stalls ~4 s on connect, and a later
   disconnect becomes an LE Create Connection Cancel that never reaches the peer. When the host
   has enabled the enhanced event in its LE event mask we send that one, with the same fields.
"""

from __future__ import annotations

import asyncio
import logging

from bumble import controller as bumble_controller
from bumble import core, hci
from bumble import link as bumble_link

log = logging.getLogger('bumble_fixes')

# LE meta subevent 0x0A (LE Enhanced Connection Complete [v1]) is bit 9 of the LE event mask.
_LE_ENHANCED_CONNECTION_COMPLETE_BIT = 1 << (hci.HCI_LE_ENHANCED_CONNECTION_COMPLETE_EVENT - 1)


class FixedLocalLink(bumble_link.LocalLink):
    """LocalLink that labels LE ACL data with the connection's own address (fix 1)."""

    def send_acl_data(self, sender_controller, destination_address, transport, data):
        if transport != core.PhysicalTransport.LE:
            return super().send_acl_data(sender_controller, destination_address, transport, data)
        connection = sender_controller.le_connections.get(destination_address)
        source_address = (
            connection.self_address if connection is not None else sender_controller.random_address
        )
        destination = self.find_le_controller(destination_address)
        if destination is None:
            log.warning('ACL data for unknown LE peer %s dropped', destination_address)
            return
        asyncio.get_running_loop().call_soon(
            destination.on_link_acl_data, source_address, transport, data
        )


class FixedController(bumble_controller.Controller):
    """Controller that sends LE Enhanced Connection Complete when the host asked for it (fix 2)."""

    def send_hci_packet(self, packet):
        if (
            isinstance(packet, hci.HCI_LE_Connection_Complete_Event)
            and self.le_event_mask & _LE_ENHANCED_CONNECTION_COMPLETE_BIT
        ):
            packet = hci.HCI_LE_Enhanced_Connection_Complete_Event(
                status=packet.status,
                connection_handle=packet.connection_handle,
                role=packet.role,
                peer_address_type=packet.peer_address_type,
                peer_address=packet.peer_address,
                local_resolvable_private_address=hci.Address.ANY_RANDOM,
                peer_resolvable_private_address=hci.Address.ANY_RANDOM,
                connection_interval=packet.connection_interval,
                peripheral_latency=packet.peripheral_latency,
                supervision_timeout=packet.supervision_timeout,
                central_clock_accuracy=packet.central_clock_accuracy,
            )
        super().send_hci_packet(packet)
