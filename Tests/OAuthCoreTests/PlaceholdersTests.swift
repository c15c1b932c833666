import OAuthCore
import Testing

/// ``Placeholders/fill(_:_:)``: `%@` in order, `%1$@`… by position, `%%`, and markers without
/// an argument left as written.
@Suite struct PlaceholdersTests {
    @Test func markersInOrderAndByPosition() {
        #expect(Placeholders.fill("a %@ b %@", ["x", "y"]) == "a x b y")
        #expect(Placeholders.fill("%2$@ then %1$@", ["x", "y"]) == "y then x")
        #expect(Placeholders.fill("100%% of %@", ["it"]) == "100% of it")
        #expect(Placeholders.fill("%@%@", ["%@", "z"]) == "%@z")
        #expect(Placeholders.fill("%1$@%1$@", ["%1$@"]) == "%1$@%1$@")
    }

    @Test func positionsAreOneOrTwoDigitsWithinTheArguments() {
        let twelve = (1...12).map { "a\($0)" }
        #expect(Placeholders.fill("%12$@", twelve) == "a12")
        #expect(Placeholders.fill("%10$@.", twelve) == "a10.")
        #expect(Placeholders.fill("%3$@", ["x", "y"]) == "%3$@")
        #expect(Placeholders.fill("%0$@", ["x"]) == "%0$@")
        #expect(Placeholders.fill("%01$@", ["x"]) == "%01$@")
        #expect(Placeholders.fill("%123$@", twelve) == "%123$@")
        #expect(Placeholders.fill("%1$", ["x"]) == "%1$")
        #expect(Placeholders.fill("%1@", ["x"]) == "%1@")
        #expect(Placeholders.fill("%1$d", ["x"]) == "%1$d")
        #expect(Placeholders.fill("%١$@", ["x"]) == "%١$@")  // only ASCII digits
    }

    @Test func strayPercentSignsStay() {
        #expect(Placeholders.fill("%", []) == "%")
        #expect(Placeholders.fill("50% off %d", ["x"]) == "50% off %d")
        #expect(Placeholders.fill("%@ %@", ["x"]) == "x %@")
        #expect(Placeholders.fill("", ["x"]) == "")
        #expect(Placeholders.fill("%%@", ["x"]) == "%@")
    }
}
