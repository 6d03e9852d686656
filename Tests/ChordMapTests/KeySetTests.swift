import Testing
@testable import ChordMap

@Suite struct KeySetTests {
    func keys(_ codes: [UInt16]) -> KeySet { KeySet(codes.map(KeyCode.init(rawValue:))) }

    @Test func iteratesInAscendingOrderAcrossWords() {
        let codes: [UInt16] = [767, 0, 64, 63, 30, 272, 128]
        #expect(keys(codes).map(\.rawValue) == codes.sorted())
        #expect(keys(codes).count == codes.count)
        #expect(Array(KeySet()).isEmpty)
        #expect(KeySet().isEmpty && !keys([767]).isEmpty)
    }

    @Test func codesBeyondTheKernelsRangeAreNotMembers() {
        var set = keys([768, 65535])
        #expect(set.insert(KeyCode(rawValue: 1000)).inserted == false)
        #expect(set.isEmpty && !set.contains(KeyCode(rawValue: 768)))
    }

    @Test func agreesWithSetOnEveryOperation() {
        let a: [UInt16] = [1, 42, 63, 64, 300, 700], b: [UInt16] = [42, 64, 65, 701]
        let (x, y) = (keys(a), keys(b))
        let (sa, sb) = (Set(a.map(KeyCode.init(rawValue:))), Set(b.map(KeyCode.init(rawValue:))))
        #expect(Set(x.union(y)) == sa.union(sb))
        #expect(Set(x.intersection(y)) == sa.intersection(sb))
        #expect(Set(x.subtracting(y)) == sa.subtracting(sb))
        #expect(Set(x.symmetricDifference(y)) == sa.symmetricDifference(sb))
        #expect(x.isDisjoint(with: keys([2, 3])) && !x.isDisjoint(with: y))
        #expect(x == keys(a.reversed()) && x != y && x.hashValue == keys(a.reversed()).hashValue)
        var z = x
        #expect(z.remove(KeyCode(rawValue: 42)) != nil && z.remove(KeyCode(rawValue: 42)) == nil)
        #expect(z.insert(KeyCode(rawValue: 42)).inserted && !z.insert(KeyCode(rawValue: 42)).inserted)
        #expect(z == x)
    }

    @Test func describesItselfByKernelNames() {
        #expect(KeySet([.leftShift, KeyCode(rawValue: 30)]).description == "{KEY_A, KEY_LEFTSHIFT}")
    }
}
