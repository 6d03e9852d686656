import ChordMap

/// Decides which keymap runs, from the focused application, the connected devices, the
/// catalog of keymap files and a manual choice (`SetKeymap`), and says so when that changes.
///
/// The daemon feeds it focus changes, device connects/disconnects, reloads (the
/// ``KeymapWatcher`` and the `Reload` method) and `SetKeymap` calls; it answers with
/// ``onChange`` whenever the resulting ``KeymapPlan`` differs from the running one, and with
/// ``onError`` whenever a reload finds a broken file. Applying the plan (at the engine's next
/// idle point) is the daemon's job: ``EngineDriver``.
///
/// Repeats are not reported: focusing another application that selects the same keymap, or a
/// reload that changes nothing, calls nothing, so the engine is not reset for nothing.
///
/// ```swift
/// let selector = KeymapSelector(catalog: .load(paths: ConfigPaths()))
/// selector.onChange = { plan in driver.apply(plan) ; control.keymapChanged(plan.base) }
/// selector.onError = { error in log.error("\(error)"); control.keymapError(error) }
/// focusSource.start(on: loop) { selector.focusChanged($0) }
/// ```
///
/// Not thread-safe: use it on the daemon's loop.
public final class KeymapSelector {
    public private(set) var catalog: KeymapCatalog
    /// The last focus reported (empty app id: nothing focused, or not known yet).
    public private(set) var focus = FocusInfo.none(source: "")
    /// Connected devices: id (address) -> name. Both are matched against `[match] devices`.
    public private(set) var devices: [DeviceID: String] = [:]
    /// The keymap file chosen with ``setOverride(path:)``; nil: automatic selection.
    public private(set) var overridePath: String?
    /// The plan in force (the last one passed to ``onChange``, or the initial one).
    public private(set) var plan: KeymapPlan

    /// Called on the loop with the new plan whenever it changes. Not called for the initial
    /// plan: read ``plan`` at start.
    public var onChange: ((KeymapPlan) -> Void)?
    /// Called on the loop with every problem a reload finds (each broken file's diagnostics,
    /// file:line:column); the broken files keep their last good version.
    public var onError: ((KeymapError) -> Void)?

    private var overrideKeymap: LoadedKeymap?
    private var overrideError: KeymapError?

    /// Starts from a loaded catalog (``KeymapCatalog/load(paths:explicitMainFile:)``); the
    /// initial plan is the main keymap for every device until focus and devices are reported.
    public init(catalog: KeymapCatalog) {
        self.catalog = catalog
        self.plan = KeymapPlan(base: catalog.main)
        plan = computePlan()
    }

    /// The keymap for devices without one of their own (what `Status` calls *the* keymap).
    public var active: LoadedKeymap { plan.base }

    /// Problems in the files right now (including a broken `SetKeymap` file), or nil.
    public var currentError: KeymapError? {
        let all = (catalog.combinedError?.diagnostics ?? []) + (overrideError?.diagnostics ?? [])
        return all.isEmpty ? nil : KeymapError(diagnostics: all)
    }

    /// Each broken file's diagnostics, as `check` prints them (for `Status`).
    public var errorTexts: [String] {
        catalog.errors.sorted { $0.key < $1.key }.map(\.value.description) + (overrideError.map { [$0.description] } ?? [])
    }

    /// The main keymap's problems when it has never loaded: at start the daemon should exit
    /// with these (there is no previous keymap to keep), as `tap-uinput run` always did.
    public var mainKeymapError: KeymapError? {
        catalog.keymaps[catalog.mainFile] == nil ? catalog.errors[catalog.mainFile] : nil
    }

    // MARK: Inputs

    /// The focused application changed (from a ``FocusSource`` or `SetFocus`).
    public func focusChanged(_ info: FocusInfo) {
        focus = info
        update()
    }

    /// A device is ready; a keymap whose `[match] devices` names its id or name applies to it.
    public func deviceConnected(id: DeviceID, name: String) {
        devices[id] = name
        update()
    }

    /// A device went away; its own keymap entry goes with it.
    public func deviceDisconnected(id: DeviceID) {
        devices[id] = nil
        update()
    }

    /// Re-reads every keymap file (and a `SetKeymap` file outside the directory). Valid files
    /// take effect (through ``onChange`` if the plan changes); broken ones keep their last good
    /// version.
    ///
    /// - Throws: every broken file's diagnostics in one ``ChordMap/KeymapError``, after
    ///   passing the same error to ``onError``.
    public func reload() throws(KeymapError) {
        catalog.reload()
        if let path = overridePath { loadOverride(path) }
        update()
        if let error = currentError {
            onError?(error)
            throw error
        }
    }

    /// Runs `path` on every device whatever has the focus (`SetKeymap`); `""` returns to
    /// automatic selection. A relative path is taken relative to the configuration directory.
    ///
    /// - Throws: the file's diagnostics when it cannot be loaded; then nothing changes.
    public func setOverride(path: String) throws(KeymapError) {
        guard !path.isEmpty else {
            overridePath = nil
            overrideKeymap = nil
            overrideError = nil
            update()
            return
        }
        let file = path.hasPrefix("/") ? path : "\(catalog.directory)/\(path)"
        let loaded: LoadedKeymap
        if let known = catalog.keymaps[file], catalog.errors[file] == nil {
            loaded = known
        } else {
            loaded = try Self.loadFile(file)
        }
        overridePath = file
        overrideKeymap = loaded
        overrideError = nil
        update()
    }

    // MARK: Selection

    private func loadOverride(_ file: String) {
        if let known = catalog.keymaps[file] {
            // In the directory: the catalog has just re-read it and reports its errors.
            overrideKeymap = known
            overrideError = nil
            return
        }
        do {
            overrideKeymap = try Self.loadFile(file)
            overrideError = nil
        } catch {
            overrideError = error   // keep the last good version
        }
    }

    private static func loadFile(_ file: String) throws(KeymapError) -> LoadedKeymap {
        try LoadedKeymap(file: file)
    }

    /// The plan for the current inputs: the override everywhere, or the catalog's choice for
    /// "no particular device" as the base plus each device whose own choice differs.
    private func computePlan() -> KeymapPlan {
        if let overrideKeymap { return KeymapPlan(base: overrideKeymap) }
        let base = catalog.select(app: focus.appID, instance: focus.instance, title: focus.title)
        var perDevice: [DeviceID: LoadedKeymap] = [:]
        for (id, name) in devices {
            let own = catalog.select(app: focus.appID, instance: focus.instance, title: focus.title, device: [id, name])
            if !own.isSame(as: base) { perDevice[id] = own }
        }
        return KeymapPlan(base: base, perDevice: perDevice)
    }

    private func update() {
        let next = computePlan()
        guard !next.isSame(as: plan) else { return }
        plan = next
        onChange?(next)
    }
}
