import EventLoop

/// Writes to one device: the mode (NUS queue, or v2 commands), the XR state, haptics, the
/// air-gesture state request, the periodic refresh, and Text mode on shutdown.
extension TapDeviceSession {
    /// Writes `mode` (and the XR state on a TapXR) through the serialised NUS queue.
    func apply(_ mode: InputMode, completion: ((Bool) -> Void)? = nil) {
        guard state == .ready else { completion?(false); return }
        if info.protocolVersion == .v2 {
            let cmds = TapCommand.v2Commands(for: mode)
            for (i, c) in cmds.enumerated() { nusWriter.enqueue(c, completion: i == cmds.count - 1 ? completion : nil) }
            info.mode = mode
            return
        }
        // Raw sensitivities cannot change while in raw mode: leave it first (Python SDK).
        if case .raw(let new) = mode, case .raw(let old)? = info.mode, old != new {
            nusWriter.enqueue(InputMode.controller.command)
        }
        if mode.isRaw { decoder.rawSensitivity = { if case .raw(let s) = mode { s } else { RawSensitivity() } }() }
        let xr = (info.isTapXR && mode != .text) ? (options.deviceXRStates[id] ?? options.xrState) : nil
        nusWriter.enqueue(mode.command, completion: xr == nil ? completion : nil)
        if let xr { nusWriter.enqueue(xr.command, completion: completion) }
        info.mode = mode
        if mode.isRaw, options.subscribe, !channels.contains(where: { $0.characteristic.uuid == TapUUID.nusTX }),
           let c = chars[TapUUID.nusTX] {
            subscribe(c, kind: .raw, gen: generation) { _ in }
        }
    }

    /// Writes only the XR state (TapXR devices).
    func applyXRState(_ s: XRState) {
        guard state == .ready, info.protocolVersion == .v1 else { return }
        nusWriter.enqueue(s.command)
    }

    func scheduleRefresh() {
        refreshTimer = manager.loop.schedule(afterMilliseconds: options.modeRefreshMilliseconds) { [weak self] in
            guard let self, self.state == .ready else { return }
            self.refreshTimer = nil
            if !self.nusWriter.isIdle {
                // Earlier writes are still queued or unanswered: they carry the same state.
                self.logger.debug("refresh skipped: writes pending")
            } else if self.info.protocolVersion == .v2 {
                self.nusWriter.enqueue(TapCommand.v2Keepalive)
            } else if let mode = self.desiredMode {
                self.apply(mode)
            }
            self.scheduleRefresh()
        }
    }

    func vibrate(_ durations: [Int], completion: ((Bool) -> Void)? = nil) {
        guard state == .ready else { completion?(false); return }
        if info.protocolVersion == .v2 {
            nusWriter.enqueue(TapCommand.v2Haptic(durations), completion: completion)
            return
        }
        guard let c = chars[TapUUID.uiCommands] else { completion?(false); return }
        writeDirect(c, TapCommand.haptic(durations), completion: completion)
    }

    func requestAirGestureState() {
        guard state == .ready, let c = chars[TapUUID.airGestures] else { return }
        writeDirect(c, TapCommand.airGestureStateRequest, completion: nil)
    }

    /// Writes outside the NUS queue: without response when the characteristic allows it.
    func writeDirect(_ c: GattCharacteristic1, _ bytes: [UInt8], completion: ((Bool) -> Void)?) {
        let type: GattCharacteristic1.WriteType = c.flags.contains("write-without-response") ? .command : .request
        c.writeValue(bytes, type: type, on: manager.connection) { [weak self] r in
            if case .failure(let e) = r { self?.logger.warning("write to \(c.uuid.prefix(8)) failed: \(e)") }
            completion?((try? r.get()) != nil)
        }
    }

    /// Writes Text mode (clean shutdown); `completion` runs when written or impossible.
    func restoreText(completion: @escaping () -> Void) {
        guard state == .ready else { completion(); return }
        if let t = refreshTimer { manager.loop.cancel(t); refreshTimer = nil }
        apply(.text) { _ in completion() }
    }

}
