// SPDX-License-Identifier: Apache-2.0
// The privacy ledger (docs/budgets.md): a budget per scope in a file the app
// owns. A release that would pass the cap throws DxtextError.budgetExceeded
// before any noise is drawn; the same text privatised again returns the
// memoised output and spends nothing.

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

/// A scope of a ledger file. One DxLedger is for one thread at a time; any
/// number of them, in any number of processes, may share one file.
public final class DxLedger {
    private let handle: OpaquePointer

    /// Open (or create) the ledger at `path` and select `scope`. `cap` and
    /// `memoCapacity` apply to a new scope; `key` (16 to 64 bytes, e.g. from
    /// the Keychain) makes the file's MAC unforgeable without it.
    public init(path: String, scope: String = "default", cap: Double = 0, memoCapacity: UInt32? = nil,
                key: [UInt8]? = nil) throws {
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
        if let key = key {
            try key.withUnsafeBufferPointer { buffer in
                options.key = buffer.baseAddress
                options.key_length = buffer.count
                try check(dxt_ledger_open(path, scope, &options, &out))
            }
        } else {
            try check(dxt_ledger_open(path, scope, &options, &out))
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
