import Foundation
import Testing

@Suite("imgsniff scan --cross-check")
struct CrossCheckCLITests {
    private let testImages = Repository.testImages

    @Test("NDJSON records carry libmagic's answer and a verdict")
    func ndjsonRecordsCarryLibmagic() throws {
        let files = ["jpeg/mpo-stereo-disparity", "png/alpha", "raw/nef", "text/trap-gif8"]
        let r = try IMGSniffBinary.run(["scan", "--cross-check", "--format", "ndjson"] + files, in: testImages)
        #expect(r.status == 0, "\(r.stderr)")
        let records = try parseNDJSON(r)
        #expect(records.count == files.count)
        for record in records {
            let magic = record["libmagic"] as? [String: Any]
            #expect(magic?["mime"] is String, "\(record)")
            #expect(magic?["verdict"] is String, "\(record)")
        }
        let mpo = records.first { ($0["path"] as? String) == "jpeg/mpo-stereo-disparity" }?["libmagic"] as? [String: Any]
        #expect(mpo?["mime"] as? String == "image/jpeg")
        #expect(mpo?["verdict"] as? String == "oursMoreSpecific")
    }

    @Test("the table summary counts verdicts")
    func tableSummaryCountsVerdicts() throws {
        let r = try IMGSniffBinary.run(["scan", "--cross-check", "--format", "table", "jpeg"], in: testImages)
        #expect(r.status == 0)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("libmagic cross-check:"))
        #expect(text.contains("agree"))
    }

    @Test("a magic database that cannot be loaded is one clear error and exit 2")
    func missingDatabase() throws {
        let r = try IMGSniffBinary.run(["scan", "--cross-check", "jpeg"], in: testImages,
                                       environment: ["MAGIC": "/nonexistent/magic.mgc"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--cross-check"))
        #expect(r.stdout.isEmpty)
    }
}
