// Detection from an asynchronous stream of chunks (an upload body, a socket): reads until the
// answer is decided, and hands back what it read so that the caller can stream it on.

/// What reading a stream until its format was decided found.
public struct StreamDetection: Sendable, Hashable {
    /// The answer: decided, or provisional when the stream was left before its end (see
    /// `IncrementalSniffer.Status`).
    public let status: IncrementalSniffer.Status
    /// Every byte read from the stream, in order. The stream is not rewound: whoever goes on
    /// with it (storing the upload, forwarding it) sends these first.
    public let bytesRead: [UInt8]
    /// Whether the stream ended: every byte of it is in `bytesRead`.
    public let reachedEnd: Bool

    /// The answer, decided or provisional.
    public var detection: Detection {
        switch status {
        case .decided(let d), .provisional(let d, _): return d
        case .needsMoreData: return Detection(type: .data, confidence: .unknown, completeness: .truncated)
        }
    }
}

extension ImageSniffer {
    /// Reads chunks from `iterator` until the format is decided, and leaves the iterator where it
    /// stopped, so that the caller can go on reading the same stream.
    ///
    /// It stops at the first chunk after which the answer is decided; at the end of the stream;
    /// or, when the answer depends on the end of the data (a trailer, or a format checked against
    /// its length), once `ReadBudget.prefixCap` bytes have been read: then the answer is
    /// provisional and `reachedEnd` is false. Every byte read is handed back, so when a format's
    /// deciding structure lies far in (a TIFF whose IFD follows megabytes of strips) `bytesRead`
    /// holds all of that; to pass the bytes on as they come instead, iterate
    /// `chunks.sniffing(...)` (`SniffingSequence`).
    ///
    /// ```swift
    /// var chunks = request.body.makeAsyncIterator()
    /// let sniffed = try await ImageSniffer.detect(from: &chunks, expectedLength: contentLength)
    /// guard sniffed.detection.type.conforms(to: .image) else { throw Rejected() }
    /// try await store(sniffed.bytesRead)                       // what was read, then the rest
    /// while let chunk = try await chunks.next() { try await store(chunk) }
    /// ```
    ///
    /// - Parameters:
    ///   - iterator: chunks of bytes (`[UInt8]`, `ArraySlice<UInt8>`, Foundation's `Data`...).
    ///   - expectedLength: the length of the whole stream when known (`Content-Length`).
    ///   - hint: an identifier, filename extension or MIME type (see `detect(_:hint:)`).
    public static func detect<Chunks: AsyncIteratorProtocol>(
        from iterator: inout Chunks, expectedLength: Int? = nil, hint: String? = nil
    ) async throws -> StreamDetection where Chunks.Element: Collection, Chunks.Element.Element == UInt8 {
        var sniffer = IncrementalSniffer(expectedLength: expectedLength, hint: hint)
        var read: [UInt8] = []
        var ended = false
        while sniffer.wantsMoreData {
            guard let chunk = try await iterator.next() else {
                ended = true
                break
            }
            read.append(contentsOf: chunk)
            sniffer.append(chunk)
        }
        if ended { sniffer.finish() }
        return StreamDetection(status: sniffer.status, bytesRead: read, reachedEnd: ended)
    }

    /// Reads `chunks` until the format is decided (see `detect(from:expectedLength:hint:)`, which
    /// also leaves the stream open for reading on).
    public static func detect<Chunks: AsyncSequence>(
        streaming chunks: Chunks, expectedLength: Int? = nil, hint: String? = nil
    ) async throws -> StreamDetection where Chunks.Element: Collection, Chunks.Element.Element == UInt8 {
        var iterator = chunks.makeAsyncIterator()
        return try await detect(from: &iterator, expectedLength: expectedLength, hint: hint)
    }
}
