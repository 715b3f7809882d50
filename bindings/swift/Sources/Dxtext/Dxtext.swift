// SPDX-License-Identifier: Apache-2.0
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
    /// dxt_last_error_message() at the time of the failure: the whole message.
    public let message: String

    public var description: String { message.isEmpty ? statusName : message }

    // generated: statuses (tools/options/generate.py, from include/dxtext/dxtext.h)
    /// A NULL pointer, a bad option or value, or a bad struct_size.
    public static let invalidArgument: Int32 = 1
    /// Epsilon is not finite, outside [DXT_EPSILON_MIN, DXT_EPSILON_MAX], or below the
    /// mechanism's bound.
    public static let invalidEpsilon: Int32 = 2
    /// A file could not be opened, read or written.
    public static let io: Int32 = 3
    /// The bytes are not a .dxe model (bad magic).
    public static let notAModel: Int32 = 4
    /// The model's major format version is newer than this library.
    public static let unsupportedVersion: Int32 = 5
    /// A field of the model fails validation.
    public static let corruptModel: Int32 = 6
    /// The model is shorter than its header says.
    public static let truncatedModel: Int32 = 7
    /// A stored SHA-256 digest does not match.
    public static let digestMismatch: Int32 = 8
    /// Memory ran out; nothing was released.
    public static let outOfMemory: Int32 = 9
    /// The random generator failed; nothing was released.
    public static let rngFailure: Int32 = 10
    /// The input is not valid UTF-8.
    public static let invalidUtf8: Int32 = 11
    /// A word or index is not in the vocabulary, or there is no default model.
    public static let notFound: Int32 = 12
    /// The mechanism, geometry or option is not supported here.
    public static let unsupported: Int32 = 13
    /// A count or size exceeds a documented limit, or a buffer is too small.
    public static let inputTooLarge: Int32 = 14
    /// Malformed input to a converter.
    public static let parse: Int32 = 15
    /// A bug in dxtext; please report it.
    public static let `internal`: Int32 = 16
    /// Another thread is inside a call on the same context; nothing was done. A context is
    /// for one thread at a time: give each thread its own.
    public static let contextBusy: Int32 = 17
    /// A ledger refused the release: it would pass the scope's cap. Nothing was drawn,
    /// released or spent (see "Privacy ledger").
    public static let budgetExceeded: Int32 = 18
    /// A ledger file fails its MAC or its format checks (damaged, truncated, edited, or
    /// opened with another app key); it is left as it is, never reset.
    public static let ledgerCorrupt: Int32 = 19
    /// A ledger is older than the anchor the app kept for it (an earlier copy of its file
    /// was put back, or the file was deleted or replaced): the call is refused, nothing is
    /// drawn or released (see "Rollback").
    public static let ledgerRollback: Int32 = 20
    // generated: end statuses
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
    case laplace = 1, hyperbolic = 2, exponential = 3, syntf = 4, mahalanobis = 5, vickrey = 6, tem = 7, ordering = 8
}

/// What happens to one class of token (dxt_token_policy).
public enum Policy: UInt32 {
    case privatize = 1, placeholder = 2, drop = 3, keep = 4
}

/// What to do with a family of typed tokens (dxt_typed_policy): replace by a
/// uniform member of the class, its placeholder, an ordinary privatised
/// word, keep (a named leak), or drop (nothing released).
public enum TypedPolicy: UInt32 {
    case privatize = 1, placeholder = 2, replace = 3, keep = 4, drop = 5
}

/// The exponential mechanism's sampler (dxt_exponential_sampler).
public enum Sampler: UInt32 {
    case gumbel = 1, permuteAndFlip = 2
}

/// How a noisy point is decoded to a word (dxt_search).
public enum Search: UInt32 {
    /// The exact nearest word (the default).
    case exact = 0
    /// The model's search index (`dxtext index`): approximate, faster on large vocabularies.
    case ivf = 1
}

/// What of the input's form a text release copies (dxt_release_shape).
public enum ReleaseShape: UInt32 {
    /// The text between words and each word's case shape, verbatim (the default).
    case keep = 1
    /// One canonical mark per gap ('.', ',' or a space), sentence capitals.
    case normalize = 2
    /// The words alone, one space apart; a keep policy is refused.
    case strict = 3
}

/// Named presets (dxt_preset; docs/options.md, "Presets"; the values are in
/// tools/options/presets.table): each sets the mechanism, epsilon, release
/// shape, output vocabulary and token policies for a common job.
public enum Preset: UInt32 {
    /// Text a person will read.
    case readable = 1
    /// Features for analytics or model training.
    case features = 2
    /// The strongest privacy of the three.
    case strongest = 3
}

/// An output vocabulary (dxt_output_set): a public list of a model's words
/// that the mechanisms may release, made once by `DxModel.outputSet(_:)` and
/// passed to calls as `PrivatizeOptions.outputWords`. It must be fixed in
/// advance and never made from the text being privatised
/// (docs/guarantees.md, "Output vocabularies"). Immutable; share it freely.
public final class OutputSet: @unchecked Sendable {
    let handle: OpaquePointer
    /// The words, as given.
    public let words: [String]

    init(model: DxModel, words: [String]) throws {
        if words.contains(where: { $0.utf8.contains(0) }) {
            throw DxtextError(status: DxtextError.invalidArgument, statusName: "invalid argument",
                              message: "an output word contains a NUL character")
        }
        // The words NUL-terminated in one buffer, and a pointer to each.
        var bytes: [CChar] = []
        var offsets: [Int] = []
        for word in words {
            offsets.append(bytes.count)
            bytes.append(contentsOf: word.utf8.map { CChar(bitPattern: $0) })
            bytes.append(0)
        }
        var out: OpaquePointer? = nil
        let status = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            var pointers: [UnsafePointer<CChar>?] = offsets.map { buffer.baseAddress! + $0 }
            return dxt_output_set_create(model.handle, &pointers, pointers.count, &out)
        }
        try check(status)
        handle = out!
        self.words = words
    }

    deinit { dxt_output_set_free(handle) }

    /// The number of words.
    public var count: Int { Int(dxt_output_set_size(handle)) }
}

/// Privatisation settings: one property per option of docs/options.md,
/// named as there in camelCase; `epsilon` is required, in
/// [`PrivatizeOptions.epsilonMin`, `PrivatizeOptions.epsilonMax`], unless
/// a `preset` gives it (0 then takes the preset's).
public struct PrivatizeOptions {
    /// DXT_EPSILON_MIN and DXT_EPSILON_MAX: the range of epsilon every call accepts.
    public static let epsilonMin: Double = 1e-6
    public static let epsilonMax: Double = 1e6

    public var epsilon: Double
    public var mechanism: Mechanism = .laplace
    /// Policies by token class; nil keeps the library's default (privatise).
    public var inVocabulary: Policy? = nil
    public var oov: Policy? = nil
    public var numbers: Policy? = nil
    public var stopwords: Policy? = nil
    /// Replacement for .placeholder; nil gives "[redacted]".
    public var placeholder: String? = nil
    /// Mechanism parameters; nil keeps the library's default (dxtext.h).
    /// tem: truncation radius gamma (0 = derived from temBeta).
    public var temGamma: Double? = nil
    /// tem: beta of Carvalho et al.
    public var temBeta: Double? = nil
    /// vickrey: t in [0, 1].
    public var vickreyT: Double? = nil
    /// mahalanobis: lambda in [0, 1].
    public var mahalanobisLambda: Double? = nil
    /// syntf: weight s >= 0 of the bigram term.
    public var syntfS: Double? = nil
    /// exponential: the sampler (Gumbel-max by default).
    public var sampler: Sampler? = nil
    /// laplace, vickrey, mahalanobis: exact (default) or ivf decoding.
    public var search: Search? = nil
    /// ivf: cells probed (0 = the library's default).
    public var ivfNprobe: UInt32? = nil
    /// text: what of the input's form shows (keep by default).
    public var releaseShape: ReleaseShape? = nil
    /// Release only the model's N most frequent words (0 = all).
    public var outputTop: UInt32? = nil
    /// Release only words of this list (`DxModel.outputSet(_:)`); not with outputTop.
    public var outputWords: OutputSet? = nil
    /// A preset: its mechanism, release shape, output vocabulary and policies,
    /// and its epsilon when `epsilon` is 0. An option it fixes may only keep
    /// its default or the preset's value: the library refuses others.
    public var preset: Preset? = nil
    /// Typed token families (docs/guarantees.md, "Typed replacement").
    public var names: TypedPolicy? = nil
    public var places: TypedPolicy? = nil
    public var organizations: TypedPolicy? = nil
    public var typedNumbers: TypedPolicy? = nil
    public var addresses: TypedPolicy? = nil
    public var health: TypedPolicy? = nil
    /// Equal typed tokens get the same replacement within one call.
    public var typedConsistent: Bool? = nil
    /// A replaced number keeps its separators and digit count (reveals its shape).
    public var numberShape: Bool? = nil
    /// The uniform floor p in [0, 1): caps the loss per word (docs/guarantees.md).
    public var floor: Double? = nil
    /// true: negators (not, never, n't, ...) are released as written and no other word becomes one.
    public var negations: Bool? = nil
    /// The context prior's strength B (ordering only; docs/guarantees.md, "The context prior").
    public var contextPrior: Double? = nil

    public init(epsilon: Double, mechanism: Mechanism = .laplace) {
        self.epsilon = epsilon
        self.mechanism = mechanism
    }

    /// The options of a preset, at its epsilon (set `epsilon` to override it).
    public init(preset: Preset) {
        self.epsilon = 0
        self.preset = preset
    }

    /// Any option of docs/options.md by its name (snake_case or camelCase),
    /// its value as text ("0.75", "permute-and-flip"): for options that
    /// have no property here. Applied after the properties; the library
    /// checks names and values (an unknown name is an error).
    public var byName: [String: String] = [:]

    /// An enum case's name as docs/options.md spells the value: permuteAndFlip -> permute-and-flip.
    private func kebab<T>(_ value: T) -> String {
        var out = ""
        for c in String(describing: value) {
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
        return out
    }

    /// The options passed to the library by name: the properties set, then byName.
    func namedValues() -> [(String, String)] {
        var out: [(String, String)] = []
        if epsilon != 0 { out.append(("epsilon", "\(epsilon)")) }  // 0: unset, a preset gives it
        out.append(("mechanism", kebab(mechanism)))
        if let p = inVocabulary { out.append(("in_vocabulary", kebab(p))) }
        if let p = oov { out.append(("oov", kebab(p))) }
        if let p = numbers { out.append(("numbers", kebab(p))) }
        if let p = stopwords { out.append(("stopwords", kebab(p))) }
        if let v = placeholder { out.append(("placeholder", v)) }
        if let v = temGamma { out.append(("tem_gamma", "\(v)")) }
        if let v = temBeta { out.append(("tem_beta", "\(v)")) }
        if let v = vickreyT { out.append(("vickrey_t", "\(v)")) }
        if let v = mahalanobisLambda { out.append(("mahalanobis_lambda", "\(v)")) }
        if let v = syntfS { out.append(("syntf_s", "\(v)")) }
        if let v = sampler { out.append(("sampler", kebab(v))) }
        if let v = search { out.append(("search", kebab(v))) }
        if let v = ivfNprobe { out.append(("ivf_nprobe", "\(v)")) }
        if let v = releaseShape { out.append(("release_shape", kebab(v))) }
        if let v = outputTop { out.append(("output_top", "\(v)")) }
        if let v = preset { out.append(("preset", kebab(v))) }
        if let v = names { out.append(("names", kebab(v))) }
        if let v = places { out.append(("places", kebab(v))) }
        if let v = organizations { out.append(("organizations", kebab(v))) }
        if let v = typedNumbers { out.append(("typed_numbers", kebab(v))) }
        if let v = addresses { out.append(("addresses", kebab(v))) }
        if let v = health { out.append(("health", kebab(v))) }
        if let v = typedConsistent { out.append(("typed_consistent", v ? "on" : "off")) }
        if let v = numberShape { out.append(("number_shape", v ? "keep" : "hide")) }
        if let v = floor { out.append(("floor", "\(v)")) }
        if let v = negations { out.append(("negations", v ? "keep" : "privatize")) }
        if let v = contextPrior { out.append(("context_prior", "\(v)")) }
        for (name, value) in byName.sorted(by: { $0.key < $1.key }) { out.append((name, value)) }
        return out
    }

    /// Passes these options to the library by name (dxt_options_set) in a
    /// dxt_options handle of `model`, and runs `body` with the struct it
    /// holds. A value with a NUL character is refused: as a C string it
    /// would silently end there.
    func withCOptions<R>(model: OpaquePointer, _ body: (UnsafePointer<dxt_privatize_options>) throws -> R) throws -> R {
        var handle: OpaquePointer? = nil
        try check(dxt_options_create(model, &handle))
        defer { dxt_options_destroy(handle) }
        for (name, value) in namedValues() {
            if value.utf8.contains(0) {
                throw DxtextError(status: DxtextError.invalidArgument, statusName: "invalid argument",
                                  message: "\(name) contains a NUL character")
            }
            try check(dxt_options_set(handle, name, value))
        }
        if let set = outputWords {
            // The words NUL-terminated in one buffer, and a pointer to each.
            var bytes: [CChar] = []
            var offsets: [Int] = []
            for word in set.words {
                offsets.append(bytes.count)
                bytes.append(contentsOf: word.utf8.map { CChar(bitPattern: $0) })
                bytes.append(0)
            }
            let status = bytes.withUnsafeBufferPointer { buffer -> Int32 in
                var pointers: [UnsafePointer<CChar>?] = offsets.map { buffer.baseAddress! + $0 }
                return dxt_options_set_words(handle, "output_words", &pointers, pointers.count)
            }
            try check(status)
        }
        return try body(dxt_options_get(handle)!)
    }
}

/// What a call released and the guarantee it carries (dxt_release_record).
/// Every field depends only on the options, the model and the generator
/// mode, never on the input: safe to send beside the output.
public struct ReleaseRecord {
    // generated: fields (tools/options/generate.py, from include/dxtext/dxtext.h)
    public let mechanism: UInt32
    /// Per word, per unit of the metric.
    public let epsilon: Double
    /// dxt_metric: the distance d of the bound.
    public let metric: UInt32
    public let rngMode: UInt32
    /// False when rng_mode is deterministic or DXT_REVEALS_INPUT_WORDS is set.
    public let isPrivate: Bool
    /// SHA-256 of the model file.
    public let modelFingerprint: [UInt8]?
    public let release: UInt32
    public let bound: UInt32
    public let reveals: UInt32
    /// DXT_BOUND_ANY_INPUTS: the number of draws n_out; 0 otherwise.
    public let draws: UInt64
    /// DXT_BOUND_ANY_INPUTS: epsilon * draws; 0 otherwise.
    public let epsilonTotal: Double
    /// Syntf only (0 otherwise): epsilon + ln eta(epsilon, V) <= epsilon, from the
    /// vocabulary size V (docs/guarantees.md, syntf); it may replace epsilon in the bound.
    public let epsilonVocabulary: Double
    /// dxt_release_shape of the call (DXT_SHAPE_KEEP by default).
    public let releaseShape: ReleaseShape
    /// dxt_output_kind: the words the mechanism could release.
    public let outputKind: UInt32
    /// How many words those are.
    public let outputSize: UInt32
    /// SHA-256 of those words (all zero for the whole vocabulary).
    public let outputDigest: [UInt8]
    /// The dxt_preset the options named (DXT_PRESET_NONE when none).
    public let preset: Preset?
    /// Bit (1u << dxt_typed_class) of each class whose tokens become a member or its
    /// placeholder.
    public let typedClasses: UInt32
    public let typedFlags: UInt32
    /// The floor p of the options (0: none).
    public let uniformFloor: Double
    /// The largest loss in nats of one privatised word (infinity: none known).
    public let worstCasePerWord: Double
    /// Bit (1u << dxt_typed_class) of each class whose tokens are dropped.
    public let typedDropped: UInt32
    /// The strength B of the context prior (0: none).
    public let contextPrior: Double
    // generated: end fields
    /// The record as one line of JSON, as the C library writes it.
    public let json: String

    init(_ r: dxt_release_record) throws {
        // generated: init (tools/options/generate.py, from include/dxtext/dxtext.h)
        mechanism = r.mechanism
        epsilon = r.epsilon
        metric = r.metric
        rngMode = r.rng_mode
        isPrivate = r.is_private
        modelFingerprint = r.fingerprint_valid ? withUnsafeBytes(of: r.model_fingerprint) { Array($0) } : nil
        release = r.release
        bound = r.bound
        reveals = r.reveals
        draws = r.draws
        epsilonTotal = r.epsilon_total
        epsilonVocabulary = r.epsilon_vocabulary
        releaseShape = ReleaseShape(rawValue: r.release_shape) ?? .keep
        outputKind = r.output_kind
        outputSize = r.output_size
        outputDigest = withUnsafeBytes(of: r.output_digest) { Array($0) }
        preset = Preset(rawValue: r.preset)
        typedClasses = r.typed_classes
        typedFlags = r.typed_flags
        uniformFloor = r.uniform_floor
        worstCasePerWord = r.worst_case_per_word
        typedDropped = r.typed_dropped
        contextPrior = r.context_prior
        // generated: end init
        var copy = r
        var required = 0
        let status = dxt_release_record_to_json(&copy, nil, 0, &required)
        if status != 14 { try check(status) }  // DXT_E_INPUT_TOO_LARGE answers the size query
        var buffer = [CChar](repeating: 0, count: required)
        try check(dxt_release_record_to_json(&copy, &buffer, required, nil))  // not buffer.count: exclusive access
        json = String(cString: buffer)
    }
}

/// What a call did to the tokens of its input (dxt_local_diagnostics).
/// These numbers DESCRIBE THE INPUT and no guarantee covers them: keep them
/// on the device.
public struct LocalDiagnostics {
    /// The number of noise draws made.
    public let wordsPrivatized: UInt64
    /// Tokens passed through verbatim by a .keep policy.
    public let wordsLeaked: UInt64
    /// As one line of JSON, with the counts of each token class and action.
    public let json: String

    init(_ d: dxt_local_diagnostics) throws {
        wordsPrivatized = d.words_privatized
        wordsLeaked = d.words_leaked
        var copy = d
        var required = 0
        let status = dxt_local_diagnostics_to_json(&copy, nil, 0, &required)
        if status != 14 { try check(status) }
        var buffer = [CChar](repeating: 0, count: required)
        try check(dxt_local_diagnostics_to_json(&copy, &buffer, required, nil))
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
    /// models of the tree the library sits in; dxt_default_model_path).
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

    /// An output vocabulary of this model (`PrivatizeOptions.outputWords`):
    /// `words`, a public list fixed in advance. An empty list, a word not in
    /// the model and a word given twice are refused (invalid argument).
    public func outputSet(_ words: [String]) throws -> OutputSet {
        try OutputSet(model: self, words: words)
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
    let model: DxModel  // internal: DxLedger passes its options by name
    let context: OpaquePointer  // internal: DxLedger privatises through it

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

    /// The text and its release record (bound: positionwise).
    public func privatize(_ text: String, options: PrivatizeOptions) throws -> (text: String, record: ReleaseRecord) {
        let (result, record, _) = try privatizeText(text, options: options, diagnostics: false)
        return (result, record)
    }

    /// As privatize(_:options:), with the token counts of the input, which must stay local.
    public func privatizeWithLocalDiagnostics(_ text: String, options: PrivatizeOptions) throws
        -> (text: String, record: ReleaseRecord, localDiagnostics: LocalDiagnostics)
    {
        let (result, record, diagnostics) = try privatizeText(text, options: options, diagnostics: true)
        return (result, record, diagnostics!)
    }

    private func privatizeText(_ text: String, options: PrivatizeOptions, diagnostics wanted: Bool) throws
        -> (String, ReleaseRecord, LocalDiagnostics?)
    {
        var record = dxt_release_record()
        dxt_release_record_init(&record)
        var diagnostics = dxt_local_diagnostics()
        dxt_local_diagnostics_init(&diagnostics)
        var out: UnsafeMutablePointer<CChar>? = nil
        var length = 0
        try options.withCOptions(model: model.handle) { o in
            if wanted {
                try check(dxt_privatize_text(context, o, text, text.utf8.count, &out, &length, &record, &diagnostics))
            } else {
                try check(dxt_privatize_text(context, o, text, text.utf8.count, &out, &length, &record, nil))
            }
        }
        defer { dxt_text_free(out) }
        let result = String(decoding: UnsafeRawBufferPointer(start: out, count: length), as: UTF8.self)
        return (result, try ReleaseRecord(record), wanted ? try LocalDiagnostics(diagnostics) : nil)
    }

    /// Privatise a bag of words {word: count}; every occurrence independently.
    /// The record's bound is eps * N * EMD for bags of equal size N.
    public func privatizeBag(_ bag: [String: UInt64], options: PrivatizeOptions) throws
        -> (bag: [String: UInt64], record: ReleaseRecord)
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
        var record = dxt_release_record()
        dxt_release_record_init(&record)
        var out: UnsafeMutablePointer<dxt_bag>? = nil
        try blob.withUnsafeBufferPointer { base in
            let entries = zip(words, spans).map { pair in
                dxt_bag_entry(word: base.baseAddress! + pair.1.offset, length: pair.1.length, count: pair.0.value)
            }
            try options.withCOptions(model: model.handle) { o in
                try check(dxt_privatize_bag(context, o, entries, entries.count, &out, &record, nil))
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
        return (result, try ReleaseRecord(record))
    }
}
