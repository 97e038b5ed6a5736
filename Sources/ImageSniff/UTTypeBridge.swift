// On Apple platforms: the bridge between ImageType and UniformTypeIdentifiers' UTType, so that code
// written against ImageSniff hands its answers to ImageIO, UIKit or AppKit as they expect them.
// (Not compiled on Linux. There is no Mac in this project's CI: this file is written to the SDK's
// documented API and untested.)

#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension ImageType {
    /// The system's declaration of this identifier, when the system declares it (every type
    /// ImageIO reads is declared; a few long-tail identifiers are ImageSniff's own).
    public var utType: UTType? { UTType(identifier) }

    /// The catalog type of a system type, by identifier; nil when ImageSniff does not know it.
    public init?(_ utType: UTType) {
        self.init(utType.identifier)
    }
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension Detection {
    /// The detected type as the system's `UTType` (nil for `public.data` answers and identifiers
    /// the system does not declare).
    public var utType: UTType? { isUnknown ? nil : type.utType }
}
#endif
