/// The built-in keymap: `config/default.toml`, compiled into the module by SwiftPM
/// (`.embedInCode`, through the link `Resources/default.toml`), so there is one copy.
enum DefaultKeymap {
    /// The TOML text of the built-in TapCode keymap.
    static let source = String(decoding: PackageResources.default_toml, as: UTF8.self)
}
