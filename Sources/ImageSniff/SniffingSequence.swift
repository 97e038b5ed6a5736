// Sniffing bytes as they pass: an asynchronous sequence of chunks (an upload body) wrapped so that
// every chunk goes on unchanged to whoever stores or forwards it, while an `IncrementalSniffer`
// looks at it on the way. No `inout` iterator to hand around, no bytes held back.

import Synchronization

/// An asynchronous sequence that forwards the chunks of `base` unchanged and sniffs them as they
/// pass: the detection and (with `readsProperties`) the image's properties can be read at any
/// point of the iteration, and are final once the base sequence ends.
///
/// ```swift
/// let body = request.body.sniffing(expectedLength: contentLength, readsProperties: true)
/// for try await chunk in body {
///     if case .decided(let d) = body.status, !d.type.conforms(to: .image) { throw NotAnImage() }
///     if case .stated(let pixels) = body.propertyProgress.pixelCount, pixels > 100_000_000 { throw TooLarge() }
///     try await file.write(chunk)                          // stored as it is checked
/// }
/// guard body.detection?.completeness == .complete else { throw Truncated() }
/// ```
///
/// The sniffer sees a chunk before the loop's body does. It keeps what `IncrementalSniffer` keeps
/// (at most `ReadBudget.bytesKept` bytes), whatever the length of the stream; once nothing more
/// is to be learnt, chunks pass without being looked at. Iterate it once.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct SniffingSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Collection, Base.Element.Element == UInt8 {
    public typealias Element = Base.Element

    private let base: Base
    private let state: State

    /// The sniffer the iterator feeds, behind a lock (the sequence may be read from elsewhere).
    final class State: Sendable {
        let sniffer: Mutex<IncrementalSniffer>
        init(_ sniffer: IncrementalSniffer) { self.sniffer = Mutex(sniffer) }
    }

    /// - Parameters:
    ///   - base: the chunks (`[UInt8]`, `ArraySlice<UInt8>`, Foundation's `Data`, a buffer's
    ///     readable bytes...).
    ///   - expectedLength: the length of the whole stream when known (`Content-Length`).
    ///   - hint: an identifier, filename extension or MIME type.
    ///   - budget: what the sniffer may read (see `ReadBudget`).
    ///   - readsProperties: whether the image's properties are read too (`propertyProgress`).
    public init(_ base: Base, expectedLength: Int? = nil, hint: String? = nil, budget: ReadBudget = .default,
                readsProperties: Bool = false) {
        self.base = base
        state = State(IncrementalSniffer(expectedLength: expectedLength, hint: hint, budget: budget, readsProperties: readsProperties))
    }

    /// What the sniffer knows so far (see `IncrementalSniffer.Status`).
    public var status: IncrementalSniffer.Status { state.sniffer.withLock { $0.status } }
    /// The answer so far: decided or provisional; nil while more data is wanted. Final once the
    /// base sequence has ended.
    public var detection: Detection? { state.sniffer.withLock { $0.detection } }
    /// The image's properties as they settle (with `readsProperties`).
    public var propertyProgress: PropertyProgress { state.sniffer.withLock { $0.propertyProgress } }
    /// Every byte that has passed.
    public var bytesSeen: Int { state.sniffer.withLock { $0.bytesSeen } }
    /// Whether the base sequence has ended (the answers are final).
    public var isFinished: Bool { state.sniffer.withLock { $0.isFinished } }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), state: state)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let state: State

        public mutating func next() async throws -> Base.Element? {
            guard let chunk = try await base.next() else {
                state.sniffer.withLock { $0.finish() }
                return nil
            }
            // (Once nothing more is to be learnt, appending only counts the bytes.)
            state.sniffer.withLock { $0.append(chunk) }
            return chunk
        }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension SniffingSequence: Sendable where Base: Sendable {}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension AsyncSequence where Element: Collection, Element.Element == UInt8 {
    /// These chunks, forwarded unchanged and sniffed as they pass (see `SniffingSequence`).
    public func sniffing(expectedLength: Int? = nil, hint: String? = nil, budget: ReadBudget = .default,
                         readsProperties: Bool = false) -> SniffingSequence<Self> {
        SniffingSequence(self, expectedLength: expectedLength, hint: hint, budget: budget, readsProperties: readsProperties)
    }
}
