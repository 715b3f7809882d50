// dxtext for Swift: privatise text under metric differential privacy.
//
//   let model = try DxModel(path: modelPath)          // or DxModel(data:)
//   let privatizer = try DxPrivatizer(model: model)   // one per thread
//   let text = try privatizer.privatize("The quick brown fox", epsilon: 20)
//
// Every call goes through the C ABI (include/dxtext/dxtext.h). Threading: a
// DxModel is immutable and may be shared between threads; a DxPrivatizer
// holds random-number state and is for one thread at a time.

import CDxtext

/// A failed dxtext call: the C library's status code and its message.
public struct DxtextError: Error, CustomStringConvertible {
    /// The dxt_status number (DXT_E_* in dxtext.h).
    public let status: Int32
    /// dxt_status_string(status), e.g. "invalid epsilon".
    public let statusName: String
    /// dxt_last_error_message() at the time of the failure.
    public let message: String

    public var description: String { message.isEmpty ? statusName : "\(statusName): \(message)" }

    public static let invalidArgument: Int32 = 1
    public static let invalidEpsilon: Int32 = 2
    public static let io: Int32 = 3
    public static let notAModel: Int32 = 4
    public static let corruptModel: Int32 = 6
    public static let truncatedModel: Int32 = 7
    public static let digestMismatch: Int32 = 8
    public static let rngFailure: Int32 = 10
    public static let notFound: Int32 = 12
}

/// Throws DxtextError for any status but DXT_OK (0).
@inline(__always)
func check(_ status: dxt_status) throws {
    guard status != 0 else { return }
    throw DxtextError(status: status, statusName: String(cString: dxt_status_string(status)),
                      message: String(cString: dxt_last_error_message()))
}

/// The mechanisms (dxt_mechanism); docs/guarantees.md states each guarantee.
public enum Mechanism: UInt32 {
    case laplace = 1, hyperbolic = 2, exponential = 3, syntf = 4, mahalanobis = 5, vickrey = 6, tem = 7
}

/// What happens to one class of token (dxt_token_policy).
public enum Policy: UInt32 {
    case privatize = 1, placeholder = 2, drop = 3, keep = 4
}

/// Privatisation settings; `epsilon` is required (finite, > 0).
public struct PrivatizeOptions {
    public var epsilon: Double
    public var mechanism: Mechanism = .laplace
    /// Policies by token class; nil keeps the library's default (privatise).
    public var inVocabulary: Policy? = nil
    public var outOfVocabulary: Policy? = nil
    public var numbers: Policy? = nil
    public var stopwords: Policy? = nil
    /// Replacement for .placeholder; nil gives "[redacted]".
    public var placeholder: String? = nil

    public init(epsilon: Double, mechanism: Mechanism = .laplace) {
        self.epsilon = epsilon
        self.mechanism = mechanism
    }

    /// Fills a dxt_privatize_options with its _init function, applies these
    /// settings, and runs `body` while the placeholder string is alive.
    func withCOptions<R>(_ body: (UnsafePointer<dxt_privatize_options>) throws -> R) rethrows -> R {
        var o = dxt_privatize_options()
        dxt_privatize_options_init(&o)
        o.mechanism = mechanism.rawValue
        o.epsilon = epsilon
        // policy is uint32_t[4], imported as a tuple, indexed by dxt_token_class.
        if let p = inVocabulary { o.policy.0 = p.rawValue }
        if let p = outOfVocabulary { o.policy.1 = p.rawValue }
        if let p = numbers { o.policy.2 = p.rawValue }
        if let p = stopwords { o.policy.3 = p.rawValue }
        guard let placeholder = placeholder else { return try body(&o) }
        return try placeholder.withCString { text in
            o.placeholder = text
            return try body(&o)
        }
    }
}

/// What a call did and the guarantee it gave (dxt_report).
public struct Report {
    public let mechanism: UInt32
    public let epsilon: Double
    /// dxt_metric: 1 Euclidean, 2 hyperbolic, 3 Mahalanobis, 4 discrete.
    public let metric: UInt32
    /// False for seeded (deterministic) noise.
    public let isPrivate: Bool
    /// SHA-256 of the model file, or nil.
    public let modelFingerprint: [UInt8]?
    /// N: the number of noise draws made.
    public let wordsPrivatized: UInt64
    /// Tokens passed through verbatim by a .keep policy.
    public let wordsLeaked: UInt64
    /// Per word: outputs for w and w' differ by at most this * d(w, w').
    public let epsilonPerUnitDistance: Double
    /// The text or bag as a whole: this * EMD for bags of N words.
    public let epsilonDocument: Double
    /// SynTF only (0 otherwise): (eps + ln eta(eps, V)) * N, from the vocabulary size V.
    public let epsilonDocumentVocabulary: Double
    /// The report as one line of JSON, as the C library writes it.
    public let json: String

    init(_ r: dxt_report) throws {
        mechanism = r.mechanism
        epsilon = r.epsilon
        metric = r.metric
        isPrivate = r.is_private
        modelFingerprint = r.fingerprint_valid ? withUnsafeBytes(of: r.model_fingerprint) { Array($0) } : nil
        wordsPrivatized = r.words_privatized
        wordsLeaked = r.words_leaked
        epsilonPerUnitDistance = r.epsilon_per_unit_distance
        epsilonDocument = r.epsilon_document
        epsilonDocumentVocabulary = r.epsilon_document_vocabulary
        var copy = r
        var required = 0
        let status = dxt_report_to_json(&copy, nil, 0, &required)
        if status != 14 { try check(status) }  // DXT_E_INPUT_TOO_LARGE answers the size query
        var buffer = [CChar](repeating: 0, count: required)
        try check(dxt_report_to_json(&copy, &buffer, required, nil))  // not buffer.count: exclusive access
        json = String(cString: buffer)
    }
}

/// An opened .dxe model. Immutable; share it between threads freely.
public final class DxModel: @unchecked Sendable {
    let handle: OpaquePointer
    /// For init(data:): the 8-byte aligned copy the model reads from.
    private let buffer: UnsafeMutableRawPointer?

    /// Memory-map and validate the model file at `path`.
    public init(path: String, verifyDigests: Bool = false) throws {
        var options = dxt_model_open_options()
        dxt_model_open_options_init(&options)
        options.flags = verifyDigests ? 1 : 0  // DXT_OPEN_VERIFY_DIGESTS
        var out: OpaquePointer? = nil
        try check(dxt_model_open_file(path, &options, &out))
        handle = out!
        buffer = nil
    }

    /// Open a model held in memory (for example from an app bundle's Data);
    /// the bytes are copied.
    public init(bytes: [UInt8], verifyDigests: Bool = false) throws {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { copy.copyMemory(from: base, byteCount: source.count) }
        }
        var options = dxt_model_open_options()
        dxt_model_open_options_init(&options)
        options.flags = verifyDigests ? 1 : 0
        var out: OpaquePointer? = nil
        let status = dxt_model_open_memory(copy, bytes.count, &options, &out)
        if status != 0 {
            copy.deallocate()
            try check(status)
        }
        handle = out!
        buffer = copy
    }

    /// The default model's path for Euclidean mechanisms ($DXTEXT_MODEL, the
    /// installed models directory, then the source tree's models/).
    public static func defaultPath() throws -> String {
        var required = 0
        let status = dxt_default_model_path(1, nil, 0, &required)  // DXT_GEOMETRY_EUCLIDEAN
        if status != 14 { try check(status) }
        var path = [CChar](repeating: 0, count: required)
        try check(dxt_default_model_path(1, &path, required, nil))  // not path.count: exclusive access
        return String(cString: path)
    }

    deinit {
        // Contexts keep the C model alive; each DxPrivatizer also holds this
        // object, so the buffer outlives them all.
        dxt_model_close(handle)
        buffer?.deallocate()
    }

    public var vocabularySize: Int {
        var info = dxt_model_info()
        dxt_model_info_init(&info)
        return dxt_model_get_info(handle, &info) == 0 ? Int(info.vocabulary_size) : 0
    }
}

/// Privatisation calls on a model, with their own random-number state.
/// For one thread at a time; make one per thread.
public final class DxPrivatizer {
    private let model: DxModel
    private let context: OpaquePointer

    /// `seed` (32 bytes) makes the noise reproducible: NOT private, for
    /// tests only. Without it, noise comes from the system generator
    /// (SecRandomCopyBytes on Apple platforms).
    public init(model: DxModel, seed: [UInt8]? = nil) throws {
        var out: OpaquePointer? = nil
        if let seed = seed {
            guard seed.count == 32 else {
                throw DxtextError(status: DxtextError.invalidArgument, statusName: "invalid argument",
                                  message: "the seed must be 32 bytes")
            }
            var options = dxt_context_options()
            dxt_context_options_init(&options)
            options.rng_mode = 2  // DXT_RNG_DETERMINISTIC
            withUnsafeMutableBytes(of: &options.seed) { $0.copyBytes(from: seed) }
            let status = dxt_context_create(model.handle, &options, &out)
            withUnsafeMutableBytes(of: &options.seed) { $0.initializeMemory(as: UInt8.self, repeating: 0) }
            try check(status)
        } else {
            try check(dxt_context_create(model.handle, nil, &out))
        }
        self.model = model
        context = out!
    }

    deinit { dxt_context_destroy(context) }

    /// Privatise text: words replaced, spacing and punctuation kept, case
    /// shape restored.
    public func privatize(_ text: String, epsilon: Double, mechanism: Mechanism = .laplace) throws -> String {
        try privatize(text, options: PrivatizeOptions(epsilon: epsilon, mechanism: mechanism)).text
    }

    public func privatize(_ text: String, options: PrivatizeOptions) throws -> (text: String, report: Report) {
        var report = dxt_report()
        dxt_report_init(&report)
        var out: UnsafeMutablePointer<CChar>? = nil
        var length = 0
        try options.withCOptions { o in
            try check(dxt_privatize_text(context, o, text, text.utf8.count, &out, &length, &report))
        }
        defer { dxt_text_free(out) }
        let result = String(decoding: UnsafeRawBufferPointer(start: out, count: length), as: UTF8.self)
        return (result, try Report(report))
    }

    /// Privatise a bag of words {word: count}; every occurrence independently.
    public func privatizeBag(_ bag: [String: UInt64], options: PrivatizeOptions) throws
        -> (bag: [String: UInt64], report: Report)
    {
        // All words in one buffer, so every entry's pointer is valid during the call.
        let words = Array(bag)
        var blob = [CChar]()
        var spans = [(offset: Int, length: Int)]()
        for (word, _) in words {
            let bytes = word.utf8.map { CChar(bitPattern: $0) }
            spans.append((blob.count, bytes.count))
            blob.append(contentsOf: bytes)
        }
        blob.append(0)  // never empty, so baseAddress is not nil
        var report = dxt_report()
        dxt_report_init(&report)
        var out: UnsafeMutablePointer<dxt_bag>? = nil
        try blob.withUnsafeBufferPointer { base in
            let entries = zip(words, spans).map { pair in
                dxt_bag_entry(word: base.baseAddress! + pair.1.offset, length: pair.1.length, count: pair.0.value)
            }
            try options.withCOptions { o in
                try check(dxt_privatize_bag(context, o, entries, entries.count, &out, &report))
            }
        }
        defer { dxt_bag_free(out) }
        var result = [String: UInt64]()
        if let bagOut = out {
            for i in 0..<bagOut.pointee.size {
                let e = bagOut.pointee.entries[i]
                let word = String(decoding: UnsafeRawBufferPointer(start: e.word, count: e.length), as: UTF8.self)
                result[word, default: 0] += e.count
            }
        }
        return (result, try Report(report))
    }
}
