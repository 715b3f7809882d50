// SPDX-License-Identifier: Apache-2.0
// The privacy ledger (docs/budgets.md): a budget per scope in a file the app
// owns. A release that would pass the cap throws DxtextError.budgetExceeded
// before any noise is drawn; the same text privatised again returns the
// memoised output and spends nothing. Store ledger.anchor().toBytes()
// outside the file after every call and pass it back to DxLedger(anchor:),
// or an older copy of the file put back goes unnoticed (docs/budgets.md,
// "Rollback").

import CDxtext

/// A scope's totals; the budget unit is epsilon summed over releases.
public struct LedgerTotals {
    public let cap: Double
    public let spent: Double
    public let spentAnyInputs: Double
    public let releases: UInt64
    public let memoised: UInt64
    public let memoCapacity: UInt32
    public let words: UInt64
    public var remaining: Double { max(0, cap - spent) }
}

/// What the app keeps outside the ledger file to detect a rollback (an older
/// copy of the file put back, or the file deleted): take it with
/// DxLedger.anchor() after every call, store toBytes() where the file's
/// writer cannot change it (the Keychain, a server), and give
/// LedgerAnchor(bytes:) of it back to DxLedger(anchor:). Without it a
/// rollback is not detected (docs/budgets.md, "Rollback").
public struct LedgerAnchor: Equatable {
    /// The length of toBytes().
    public static let byteCount = 32

    /// 16 bytes naming the ledger: the same for every copy of its file.
    public let ledgerId: [UInt8]
    /// Commits made to the ledger; only grows.
    public let commits: UInt64
    /// Epsilon spent over all its scopes; only grows.
    public let spent: Double

    init(_ a: dxt_ledger_anchor) {
        var copy = a
        ledgerId = withUnsafeBytes(of: &copy.ledger_id) { Array($0) }
        commits = a.commits
        spent = a.spent
    }

    /// The anchor from the 32 bytes toBytes() gave; throws
    /// DxtextError.invalidArgument for any other length.
    public init(bytes: [UInt8]) throws {
        guard bytes.count == LedgerAnchor.byteCount else {
            throw DxtextError(status: DxtextError.invalidArgument, statusName: "invalid argument",
                              message: "a ledger anchor is \(LedgerAnchor.byteCount) bytes, not \(bytes.count)")
        }
        var commits: UInt64 = 0
        var spentBits: UInt64 = 0
        for i in 0..<8 {
            commits |= UInt64(bytes[16 + i]) << (8 * UInt64(i))
            spentBits |= UInt64(bytes[24 + i]) << (8 * UInt64(i))
        }
        self.ledgerId = Array(bytes[0..<16])
        self.commits = commits
        self.spent = Double(bitPattern: spentBits)
    }

    /// The 32 bytes to store: the id, then the commits and the spent total
    /// (little-endian).
    public func toBytes() -> [UInt8] {
        var out = ledgerId
        let spentBits = spent.bitPattern
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: commits >> (8 * UInt64(i)))) }
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: spentBits >> (8 * UInt64(i)))) }
        return out
    }

    /// Equal when their bytes are (so an anchor equals its toBytes() read back).
    public static func == (a: LedgerAnchor, b: LedgerAnchor) -> Bool { a.toBytes() == b.toBytes() }

    /// The C struct, filled.
    func cAnchor() -> dxt_ledger_anchor {
        var a = dxt_ledger_anchor()
        dxt_ledger_anchor_init(&a)
        withUnsafeMutableBytes(of: &a.ledger_id) { $0.copyBytes(from: ledgerId) }
        a.commits = commits
        a.spent = spent
        return a
    }
}

/// A scope of a ledger file. One DxLedger is for one thread at a time; any
/// number of them, in any number of processes, may share one file.
public final class DxLedger {
    private let handle: OpaquePointer

    /// Open (or create) the ledger at `path` and select `scope`. `cap` and
    /// `memoCapacity` apply to a new scope; `key` (16 to 64 bytes, e.g. from
    /// the Keychain) makes the file's MAC unforgeable without it. `anchor`,
    /// the one stored after the last call, makes an older copy of the file
    /// put back (or the file deleted) throw DxtextError.ledgerRollback;
    /// without it a rollback is not detected.
    public init(path: String, scope: String = "default", cap: Double = 0, memoCapacity: UInt32? = nil,
                key: [UInt8]? = nil, anchor: LedgerAnchor? = nil) throws {
        // The C call reads both up to their first NUL: "user\0day1" would
        // open the scope "user".
        if path.utf8.contains(0) || scope.utf8.contains(0) {
            throw DxtextError(status: DxtextError.invalidArgument, statusName: "invalid argument",
                              message: "the path or the scope contains a NUL character")
        }
        var options = dxt_ledger_options()
        dxt_ledger_options_init(&options)
        options.cap = cap
        if let memoCapacity = memoCapacity { options.memo_capacity = memoCapacity }
        var out: OpaquePointer? = nil
        var stored = anchor?.cAnchor() ?? dxt_ledger_anchor()
        try withUnsafePointer(to: &stored) { anchorPointer in
            if anchor != nil { options.anchor = anchorPointer }
            if let key = key {
                try key.withUnsafeBufferPointer { buffer in
                    options.key = buffer.baseAddress
                    options.key_length = buffer.count
                    try check(dxt_ledger_open(path, scope, &options, &out))
                }
            } else {
                try check(dxt_ledger_open(path, scope, &options, &out))
            }
        }
        handle = out!
    }

    deinit { dxt_ledger_close(handle) }

    /// Privatise through the ledger; `fresh` draws anew (and spends) even
    /// when the text is memoised.
    public func privatize(_ text: String, with privatizer: DxPrivatizer, options: PrivatizeOptions,
                          fresh: Bool = false) throws -> (text: String, memoised: Bool, record: ReleaseRecord) {
        var record = dxt_release_record()
        dxt_release_record_init(&record)
        var out: UnsafeMutablePointer<CChar>? = nil
        var length = 0
        var memoised = false
        try options.withCOptions(model: privatizer.model.handle) { o in
            try check(dxt_ledger_privatize_text(handle, privatizer.context, o, text, text.utf8.count,
                                                fresh ? 1 : 0, &out, &length, &memoised, &record, nil))
        }
        defer { dxt_text_free(out) }
        let result = String(decoding: UnsafeRawBufferPointer(start: out, count: length), as: UTF8.self)
        return (result, memoised, try ReleaseRecord(record))
    }

    /// The scope's totals, read from the file.
    public func totals() throws -> LedgerTotals {
        var t = dxt_ledger_totals()
        dxt_ledger_totals_init(&t)
        try check(dxt_ledger_get_totals(handle, &t))
        return LedgerTotals(cap: t.cap, spent: t.spent, spentAnyInputs: t.spent_any_inputs, releases: t.releases,
                            memoised: t.memoised, memoCapacity: t.memo_capacity, words: t.words)
    }

    /// The ledger's anchor now, read from the file: store its toBytes()
    /// outside the file after every call, replacing the one before, and give
    /// it to DxLedger(anchor:) next time. Throws DxtextError.ledgerRollback
    /// when the file is older than what this handle last saw.
    public func anchor() throws -> LedgerAnchor {
        var a = dxt_ledger_anchor()
        dxt_ledger_anchor_init(&a)
        try check(dxt_ledger_get_anchor(handle, &a))
        return LedgerAnchor(a)
    }

    /// The scope as one line of JSON, as `dxtext ledger` prints it.
    public func json() throws -> String {
        var required = 0
        let probe = dxt_ledger_to_json(handle, nil, 0, &required)
        if probe != 14 { try check(probe) }  // 14: DXT_E_INPUT_TOO_LARGE, the size answer
        var buffer = [CChar](repeating: 0, count: required)
        try check(dxt_ledger_to_json(handle, &buffer, buffer.count, &required))
        return String(cString: buffer)
    }

    /// Set the scope's cap (finite, >= 0).
    public func setCap(_ cap: Double) throws {
        try check(dxt_ledger_set_cap(handle, cap))
    }
}
