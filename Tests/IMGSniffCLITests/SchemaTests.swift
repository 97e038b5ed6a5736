import Foundation
import Testing
import TestSupport

/// Every table-free output mode of `imgsniff scan` validates against the JSON Schemas in docs/.
@Suite("Output against its JSON Schema")
struct SchemaTests {
    /// A JSON value, decoded strictly (a boolean is never a number).
    indirect enum JSON: Decodable, Equatable {
        case null, bool(Bool), integer(Int), number(Double), string(String), array([JSON]), object([String: JSON])

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let i = try? c.decode(Int.self) { self = .integer(i) }
            else if let d = try? c.decode(Double.self) { self = .number(d) }
            else if let s = try? c.decode(String.self) { self = .string(s) }
            else if let a = try? c.decode([JSON].self) { self = .array(a) }
            else { self = .object(try c.decode([String: JSON].self)) }
        }

        var typeName: String {
            switch self {
            case .null: "null"
            case .bool: "boolean"
            case .integer: "integer"
            case .number: "number"
            case .string: "string"
            case .array: "array"
            case .object: "object"
            }
        }

        var number: Double? {
            switch self {
            case .integer(let i): Double(i)
            case .number(let d): d
            default: nil
            }
        }

        static func parse(_ data: Data) throws -> JSON { try JSONDecoder().decode(JSON.self, from: data) }
    }

    /// The part of JSON Schema (2020-12) the schemas use: type (one or several), const, enum,
    /// required, properties, additionalProperties (false or a schema), minimum, maximum. Returns
    /// what does not validate, with where.
    static func violations(_ value: JSON, _ schema: JSON, at path: String = "$") -> [String] {
        guard case .object(let s) = schema else { return ["\(path): the schema is not an object"] }
        var problems: [String] = []
        if let type = s["type"] {
            var allowed: [String] = []
            if case .string(let t) = type { allowed = [t] }
            if case .array(let ts) = type { allowed = ts.compactMap { if case .string(let t) = $0 { t } else { nil } } }
            let actual = value.typeName
            if !allowed.contains(actual) && !(actual == "integer" && allowed.contains("number")) {
                return ["\(path): \(actual), the schema wants \(allowed)"]
            }
        }
        if let c = s["const"], c != value { problems.append("\(path): not \(c)") }
        if case .array(let options)? = s["enum"], !options.contains(value) { problems.append("\(path): \(value) is not one of \(options)") }
        if let n = value.number {
            if let min = s["minimum"]?.number, n < min { problems.append("\(path): \(n) < \(min)") }
            if let max = s["maximum"]?.number, n > max { problems.append("\(path): \(n) > \(max)") }
        }
        if case .object(let object) = value {
            if case .array(let required)? = s["required"] {
                for case .string(let key) in required where object[key] == nil { problems.append("\(path): lacks \(key)") }
            }
            var properties: [String: JSON] = [:]
            if case .object(let p)? = s["properties"] { properties = p }
            for (key, v) in object {
                if let sub = properties[key] {
                    problems += violations(v, sub, at: path + "." + key)
                } else if case .object? = s["additionalProperties"] {
                    problems += violations(v, s["additionalProperties"]!, at: path + "." + key)
                } else if s["additionalProperties"] == .bool(false) {
                    problems.append("\(path): \(key) is not in the schema")
                }
            }
        }
        return problems
    }

    static func schema(_ name: String) throws -> JSON {
        try JSON.parse(try Data(contentsOf: Repository.url("docs/\(name)")))
    }

    static func objects(ndjson text: String) throws -> [JSON] {
        try text.split(separator: "\n").map { try JSON.parse(Data($0.utf8)) }
    }

    @Test(arguments: [
        ["--format", "ndjson"], ["--format", "ndjson", "--properties"], ["--format", "ndjson", "--properties", "--verify"],
        ["--format", "json", "--properties"], ["--format", "ndjson", "--hint-from-extension", "--only-images"],
    ])
    func recordsValidate(_ flags: [String]) throws {
        let schema = try Self.schema("scan-record.schema.json")
        let r = try IMGSniffBinary.run(["scan"] + flags + ["TestImages", "/nonexistent/imagesniff"], in: Repository.root)
        var records: [JSON] = []
        if flags.contains("json") {
            if case .array(let all) = try JSON.parse(Data(r.stdout)) { records = all }
        } else {
            records = try Self.objects(ndjson: r.text)
        }
        #expect(records.count > 300)
        #expect(records.count > 0)
        for (i, record) in records.enumerated() {
            let problems = Self.violations(record, schema)
            #expect(problems.isEmpty, "record \(i): \(problems)")
            if !problems.isEmpty { break }
        }
    }

    /// libmagic's object (--cross-check) and a name that is not UTF-8 (pathBytes).
    @Test func crossCheckAndRawNamesValidate() throws {
        let schema = try Self.schema("scan-record.schema.json")
        let tree = try ScratchTree()
        try tree.rawFile(in: ".", name: invalidName, [UInt8](try Data(contentsOf: Repository.testImages.appendingPathComponent("png/alpha"))))
        try tree.file("text", Array("hello\n".utf8))
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "--cross-check", "--properties", "."], in: tree.root)
        let records = try Self.objects(ndjson: r.text)
        #expect(records.count == 2)
        #expect(r.text.contains("\"pathBytes\":") && r.text.contains("\"libmagic\":{"))
        for record in records { #expect(Self.violations(record, schema).isEmpty, "\(Self.violations(record, schema))") }
    }

    @Test(arguments: [["--format", "json"], ["--format", "ndjson"], ["--format", "json", "--cross-check"]])
    func summaryValidates(_ flags: [String]) throws {
        let schema = try Self.schema("scan-summary.schema.json")
        let r = try IMGSniffBinary.run(["scan", "--summary"] + flags + ["TestImages/png"], in: Repository.root)
        let object = try JSON.parse(Data(r.stdout))
        #expect(Self.violations(object, schema).isEmpty, "\(Self.violations(object, schema))")
    }

    /// The validator is not a stub: a record with a wrong type, a missing field, an unknown
    /// field or a value outside an enum fails.
    @Test func theValidatorRejects() throws {
        let schema = try Self.schema("scan-record.schema.json")
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "TestImages/png/alpha"], in: Repository.root)
        guard case .object(let good)? = try Self.objects(ndjson: r.text).first else { Issue.record("no record"); return }
        #expect(Self.violations(.object(good), schema).isEmpty)
        var bad = good; bad["isImage"] = .string("yes")
        #expect(!Self.violations(.object(bad), schema).isEmpty)
        bad = good; bad.removeValue(forKey: "uti")
        #expect(!Self.violations(.object(bad), schema).isEmpty)
        bad = good; bad["surprise"] = .integer(1)
        #expect(!Self.violations(.object(bad), schema).isEmpty)
        bad = good; bad["confidence"] = .string("certain")
        #expect(!Self.violations(.object(bad), schema).isEmpty)
        bad = good; bad["isImage"] = .integer(1)
        #expect(!Self.violations(.object(bad), schema).isEmpty, "a number is no boolean")
    }
}
