import ChordMap

/// Which keymap every device should run: one keymap for all devices, plus the devices whose
/// `[match]`-selected keymap differs from it.
///
/// The engine maps this one to one: ``base`` is ``ChordMap/Engine/replaceKeymap(_:)``,
/// each ``perDevice`` entry ``ChordMap/Engine/setKeymap(_:for:)``, and every device that
/// had an entry before and has none now goes back with `setKeymap(nil, for:)`.
public struct KeymapPlan {
    /// The keymap for devices without an entry in ``perDevice``.
    public var base: LoadedKeymap
    /// Devices (by id) that run another keymap than ``base``.
    public var perDevice: [DeviceID: LoadedKeymap]

    public init(base: LoadedKeymap, perDevice: [DeviceID: LoadedKeymap] = [:]) {
        self.base = base
        self.perDevice = perDevice
    }

    /// The keymap `device` runs under this plan.
    public func keymap(for device: DeviceID) -> LoadedKeymap { perDevice[device] ?? base }

    /// Same files with the same contents: applying `other` after `self` would change nothing.
    public func isSame(as other: KeymapPlan) -> Bool {
        base.isSame(as: other.base) && perDevice.count == other.perDevice.count
            && perDevice.allSatisfy { id, loaded in other.perDevice[id].map { loaded.isSame(as: $0) } ?? false }
    }
}
