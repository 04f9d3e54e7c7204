extension JSONFloatText {
    /// Powers of ten that a `Double` holds exactly: 10^0 through 10^22.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The doubles nearest to 10^-1 through 10^-5.
    private static let negativePowersOfTen: [Double] = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5]

    /// Eight ASCII zeros.
    private static let eightZeros: UInt64 = 0x3030_3030_3030_3030

    /// Appends `value` when its shortest digits number 15 or fewer and Python prints it in fixed
    /// notation — coordinates, distances, speeds: most doubles in trips — several times faster than
    /// Swift's general algorithm; returns false, appending nothing, for any other value.
    ///
    /// Why it gives exactly the shortest digits: no two decimals of 15 or fewer significant digits
    /// read back as the same double (their spacing, at least 10^-15 of the value, is wider than a
    /// double's 2^-52), so if the value rounded to 15 significant digits reads back as the value, those
    /// digits without their trailing zeros are the shortest digits that do. Reading back is one
    /// division, m / 10^k, of two exactly represented numbers (m < 10^15 < 2^53, k <= 22), which IEEE
    /// 754 rounds correctly, as a correct decimal parser does. The rounding to 15 digits is itself a
    /// floating-point product, and may land on the neighbouring integer when the exact product is a
    /// hair from .5: then the check fails, or, by the uniqueness above, what it accepts is still the
    /// only answer.
    ///
    /// The text is made without a loop over digits: the 15 digits (with a leading zero, 16) become
    /// ASCII eight at a time in registers (``asciiDigits(eightOf:)``), the point goes in by shifting,
    /// and the zeros to cut off are counted from the bits.
    static func appendFewDigits(_ value: Double, to output: inout [UInt8]) -> Bool {
        let magnitude = value.magnitude
        // Fixed notation (Python's pointPosition -3...16), below 10^15 so 15 digits cover the
        // integer part.
        guard magnitude >= 1e-4, magnitude < 1e15 else { return false }
        // Coordinates mostly have 7 decimals or fewer (E7 integers; polylines keep 5). Below 10^8,
        // such a value is a decimal of at most 15 digits with the point after the 9th of 16, so
        // the same read-back check proves it, without estimating where the point goes.
        if magnitude < 1e8 {
            let sevenDecimals = Int64(magnitude * 1e7 + 0.5)
            if Double(sevenDecimals) / 1e7 == magnitude {
                appendFixed(
                    negative: value < 0, digits: asciiDigits(UInt64(sevenDecimals)), integerDigits: 9, to: &output)
                return true
            }
        }
        // The point position p with 10^(p-1) <= magnitude < 10^p, estimated from the binary exponent;
        // an estimate one too high asks for 14 digits (still unique), one too low is caught below.
        // The binary exponent, read from the bits (the value is normal here).
        let binaryExponent = Int((magnitude.bitPattern >> 52) & 0x7FF) - 1_023
        var pointPosition = (binaryExponent * 1_233) >> 12 + 1
        let bound: Double
        if pointPosition >= 0 {
            guard pointPosition < exactPowersOfTen.count else { return false }
            bound = exactPowersOfTen[pointPosition]
        } else {
            // 10^-1 ... 10^-5 are not exact doubles; comparing with the nearest ones can only make
            // the estimate one off, which the checks below absorb.
            guard -pointPosition <= negativePowersOfTen.count else { return false }
            bound = negativePowersOfTen[-pointPosition - 1]
        }
        if magnitude >= bound { pointPosition += 1 }
        let scale = 15 - pointPosition
        guard scale >= 0, scale < exactPowersOfTen.count else { return false }
        // Any integer next to the product will do: the check that follows accepts only the one answer.
        let candidate = magnitude * exactPowersOfTen[scale] + 0.5
        guard candidate < 1e15 else { return false }
        // Signed conversions are single instructions, and the candidate is far below 2^63.
        let signedDigits = Int64(candidate)
        guard signedDigits > 0, Double(signedDigits) / exactPowersOfTen[scale] == magnitude else { return false }
        // The value is digits x 10^-scale, with digits below 10^15 and scale from 0 to 18.
        appendFixed(
            negative: value < 0, digits: asciiDigits(UInt64(signedDigits)), integerDigits: 16 - scale, to: &output)
        return true
    }

    /// The 16 decimal digits of `value` (below 10^16, leading zeros included) as ASCII, the first
    /// digit in the lowest byte.
    @inline(__always)
    private static func asciiDigits(_ value: UInt64) -> UInt128 {
        UInt128(asciiDigits(eightOf: value / 100_000_000)) | UInt128(asciiDigits(eightOf: value % 100_000_000)) << 64
    }

    /// Lays out 16 ASCII digits (the first in the lowest byte) as Python's repr writes fixed
    /// notation: sign, integer digits without leading zeros (at least one), point, fraction digits
    /// without trailing zeros (at least one). `integerDigits` (-2 to 16) of them come before the
    /// point; fewer than one means zeros after the point first.
    private static func appendFixed(
        negative: Bool, digits text: UInt128, integerDigits: Int, to output: inout [UInt8]
    ) {
        let zeroBytes = text ^ (UInt128(eightZeros) << 64 | UInt128(eightZeros))
        let leadingZeros = zeroBytes.trailingZeroBitCount >> 3
        let trailingZeros = zeroBytes.leadingZeroBitCount >> 3
        withUnsafeTemporaryAllocation(byteCount: 80, alignment: 16) { raw in
            let buffer = raw.baseAddress.unsafelyUnwrapped
            // The 16 digits go from byte 24 on (or 25, after the point). Zeros before them, for a
            // fraction's leading zeros, and after them, for ".0" (and to the end, as 32 bytes are
            // copied out whatever the length).
            buffer.storeBytes(of: eightZeros, toByteOffset: 16, as: UInt64.self)
            buffer.storeBytes(of: eightZeros, toByteOffset: 40, as: UInt64.self)
            buffer.storeBytes(of: 0, toByteOffset: 48, as: UInt128.self)
            buffer.storeBytes(of: 0, toByteOffset: 64, as: UInt128.self)
            var start: Int
            let end: Int
            if integerDigits <= 0 {
                // 0.0ddd: "0." and zeros, then the digits as they are.
                buffer.storeBytes(of: text.littleEndian, toByteOffset: 24, as: UInt128.self)
                buffer.storeBytes(of: UInt8(ascii: "."), toByteOffset: 23 + integerDigits, as: UInt8.self)
                start = 22 + integerDigits
                end = 40 - trailingZeros
            } else if integerDigits == 16 {
                // No fraction digits: ".0" after them.
                buffer.storeBytes(of: text.littleEndian, toByteOffset: 24, as: UInt128.self)
                buffer.storeBytes(of: UInt8(ascii: "."), toByteOffset: 40, as: UInt8.self)
                start = 24 + leadingZeros
                end = 42
            } else {
                // The integer digits, the point, then the fraction's digits one byte further on,
                // put together in a register: moving bytes in memory right after storing them would
                // wait for the stores.
                let integerBits = integerDigits &* 8
                let integerMask: UInt128 = (1 &<< integerBits) &- 1
                let point = UInt128(UInt8(ascii: ".")) &<< integerBits
                let fraction = (text &<< 8) & ~(integerMask | integerMask &<< 8)
                let laidOut = (text & integerMask) | point | fraction
                buffer.storeBytes(of: laidOut.littleEndian, toByteOffset: 24, as: UInt128.self)
                // The last digit, shifted out of the register.
                buffer.storeBytes(of: UInt8(truncatingIfNeeded: text &>> 120), toByteOffset: 40, as: UInt8.self)
                start = 24 + min(leadingZeros, integerDigits - 1)
                end = max(41 - trailingZeros, 26 + integerDigits)
            }
            if negative {
                start -= 1
                buffer.storeBytes(of: UInt8(ascii: "-"), toByteOffset: start, as: UInt8.self)
            }
            let count = end - start
            #if compiler(>=6.2)
                // Two 16-byte copies into the output's spare room, counting only the text: for a
                // dozen bytes, the call to memmove that append(contentsOf:) makes costs more.
                let first = buffer.loadUnaligned(fromByteOffset: start, as: UInt128.self)
                let second = buffer.loadUnaligned(fromByteOffset: start + 16, as: UInt128.self)
                output.append(addingCapacity: 32) { room in
                    room.withUnsafeMutableBufferPointer { bytes, initialized in
                        let target = UnsafeMutableRawPointer(bytes.baseAddress.unsafelyUnwrapped)
                        target.storeBytes(of: first, as: UInt128.self)
                        target.storeBytes(of: second, toByteOffset: 16, as: UInt128.self)
                        initialized = count
                    }
                }
            #else
                output.append(contentsOf: UnsafeRawBufferPointer(start: buffer + start, count: count))
            #endif
        }
    }

    /// The eight decimal digits of `value` (below 10^8, leading zeros included) as ASCII, the first
    /// digit in the lowest byte. Each step splits every lane of the register in two, dividing by a
    /// multiplication and a shift that are exact over the lane's range.
    @inline(__always)
    static func asciiDigits(eightOf value: UInt64) -> UInt64 {
        // Two lanes of 32 bits: the first four digits, then the last four.
        var lanes = value / 10_000 | (value % 10_000) << 32
        // Four lanes of 16 bits, pairs of digits: n * 10486 >> 20 is n / 100 for every n < 10^4.
        let hundreds = (lanes &* 10_486) >> 20 & 0x0000_007F_0000_007F
        lanes = hundreds | (lanes &- hundreds &* 100) << 16
        // Eight lanes of 8 bits, digits: n * 103 >> 10 is n / 10 for every n < 100.
        let tens = (lanes &* 103) >> 10 & 0x000F_000F_000F_000F
        lanes = tens | (lanes &- tens &* 10) << 8
        return lanes | eightZeros
    }
}
