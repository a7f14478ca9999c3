extension Int {
    /// `1000000` as `"1,000,000"`: a count with its thousands grouped, for messages.
    package var formatted: String {
        let digits = String(magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }
}
