import ChordMap
import KeyboardLayout

extension EngineDriver {
    /// The layout a desktop source, the control interface or `--layout` reports, pushed on every
    /// change. Compiles its character map now (milliseconds, on layout changes only) and switches
    /// at the next idle point, like a keymap. A keymap's own `[options] layout` wins over
    /// everything but `--layout`; after `--layout` (origin `"option"`) other reports are ignored.
    /// A layout XKB cannot compile is logged and the current one stays.
    public func setLayout(_ report: LayoutReport) {
        guard reportedLayout.origin != "option" || report.origin == "option" else { return }
        reportedLayout = report
        prepareLayout(report)
        applyPendingKeymapIfIdle()
    }

    /// The layout characters are typed for after `reported`, given the active keymap.
    static func effectiveLayout(reported: LayoutReport, keymap: Keymap) -> LayoutReport {
        guard reported.origin != "option", let own = keymap.options.layout.flatMap(LayoutNames.init(spelling:)) else {
            return reported
        }
        return LayoutReport(.names(own), origin: "keymap")
    }

    /// Compiles the effective layout into ``pendingCharacters`` if it differs from the current one.
    func prepareLayout(_ reported: LayoutReport) {
        let effective = Self.effectiveLayout(reported: reported, keymap: engine.baseKeymap)
        guard effective != layout || pendingCharacters.map({ $0.report != effective }) == true else {
            pendingCharacters = nil
            return
        }
        do {
            pendingCharacters = (effective, try CharacterMap(layout: effective))
        } catch {
            logger.error("layout from \(effective.origin) not used: \(error)")
        }
    }

    /// Characters the layout cannot type, as positioned warnings (they type nothing).
    func logUntypeable(_ missing: [UntypeableCharacter]) {
        for m in missing { logger.warning("\(m)") }
    }
}
