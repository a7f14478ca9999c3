import Testing

@testable import CadenceTesting

@Suite("ValueNode")
struct ValueNodeTests {
    private let one = ValueNode.scalar("1")
    private let two = ValueNode.scalar("2")

    @Test func recordsPrintTheirTypeAndLabelledFields() {
        let node = ValueNode(
            .record(type: "P", fields: [.init(label: "x", value: one), .init(label: nil, value: two)]))
        #expect(node.text == "P(x: 1, 2)")
        #expect(ValueNode(.record(type: "E", fields: [])).text == "E()")
    }

    @Test func enumCasesAreQualifiedOnlyOnTheirOwn() {
        let offline = ValueNode(.enumCase(type: "APIError", name: "offline", payload: nil))
        #expect(offline.text == ".offline")
        #expect(offline.standaloneText == "APIError.offline")
        let status = ValueNode(.enumCase(type: "APIError", name: "status", payload: [.init(label: nil, value: one)]))
        #expect(status.text == ".status(1)")
        #expect(status.standaloneText == "APIError.status(1)")
        let empty = ValueNode(.enumCase(type: "E", name: "none", payload: []))
        #expect(empty.text == ".none()")
    }

    @Test func collectionsPrintTheirElements() {
        #expect(ValueNode(.tuple([.init(label: nil, value: one), .init(label: "b", value: two)])).text == "(1, b: 2)")
        #expect(ValueNode(.list([one, two])).text == "[1, 2]")
        #expect(ValueNode(.list([])).text == "[]")
        #expect(ValueNode(.set([one])).text == "Set([1])")
        #expect(ValueNode(.dictionary([.init(key: one, value: two)])).text == "[1: 2]")
        #expect(ValueNode(.dictionary([])).text == "[:]")
    }

    @Test func scalarsAreTheirTextOnTheirOwnToo() {
        #expect(ValueNode.scalar("x").text == "x")
        #expect(ValueNode.scalar("x").standaloneText == "x")
    }
}
