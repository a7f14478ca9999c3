import ExampleApp
import Testing

struct EmailValidatorTests {
    @Test(arguments: ["blob@example.com", "  blob@example.com  ", "blob.jr+reset@mail.example.co.uk"])
    func aPlausibleAddressPasses(_ text: String) {
        #expect(EmailValidator.isPlausible(text))
    }

    @Test(arguments: [
        "", "blob", "@example.com", "blob@", "blob@example", "blob@.com", "blob@example.",
        "blob@@example.com", "blob @example.com",
    ])
    func anImplausibleAddressFails(_ text: String) {
        #expect(!EmailValidator.isPlausible(text))
    }
}
