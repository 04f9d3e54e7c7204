public import FleetEngineCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the sun stands, by NOAA's solar position algorithm (the equations of NOAA's Solar
/// Calculator, after Jean Meeus, *Astronomical Algorithms*): accurate to about a minute in the
/// times of sunrise and sunset between the polar circles for years near the present.
public enum SolarPosition {
    /// The sun's geometric elevation above the horizon, in degrees (negative below it), at `latitude`
    /// and `longitude` (degrees, east positive) at `time`, without atmospheric refraction.
    public static func elevation(latitude: Double, longitude: Double, at time: Timestamp) -> Double {
        let julianDay = (Double(time.seconds) + Double(time.nanos) / 1e9) / 86_400 + 2_440_587.5
        let century = (julianDay - 2_451_545) / 36_525
        let meanLongitude = (280.46646 + century * (36_000.76983 + century * 0.0003032))
            .truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + century * (35_999.05029 - 0.0001537 * century)
        let eccentricity = 0.016708634 - century * (0.000042037 + 0.0000001267 * century)
        let centre =
            sin(radians(meanAnomaly)) * (1.914602 - century * (0.004817 + 0.000014 * century))
            + sin(radians(2 * meanAnomaly)) * (0.019993 - 0.000101 * century)
            + sin(radians(3 * meanAnomaly)) * 0.000289
        let trueLongitude = meanLongitude + centre
        let omega = 125.04 - 1_934.136 * century
        let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(radians(omega))
        let meanObliquity =
            23 + (26 + (21.448 - century * (46.815 + century * (0.00059 - century * 0.001813))) / 60) / 60
        let obliquity = meanObliquity + 0.00256 * cos(radians(omega))
        let declination = asin(sin(radians(obliquity)) * sin(radians(apparentLongitude)))
        let y = pow(tan(radians(obliquity / 2)), 2)
        let l0 = radians(meanLongitude)
        let m = radians(meanAnomaly)
        // The equation of time, in minutes.
        let equationOfTime =
            4
            * degrees(
                y * sin(2 * l0) - 2 * eccentricity * sin(m) + 4 * eccentricity * y * sin(m) * cos(2 * l0)
                    - 0.5 * y * y * sin(4 * l0) - 1.25 * eccentricity * eccentricity * sin(2 * m))
        let minutesOfDay = (Double(time.seconds.modulo(86_400)) + Double(time.nanos) / 1e9) / 60
        var trueSolarTime = (minutesOfDay + equationOfTime + 4 * longitude).truncatingRemainder(dividingBy: 1_440)
        if trueSolarTime < 0 { trueSolarTime += 1_440 }
        let hourAngle = trueSolarTime / 4 < 0 ? trueSolarTime / 4 + 180 : trueSolarTime / 4 - 180
        let latitudeRadians = radians(latitude)
        let cosZenith =
            sin(latitudeRadians) * sin(declination) + cos(latitudeRadians) * cos(declination)
            * cos(radians(hourAngle))
        return 90 - degrees(acos(min(1, max(-1, cosZenith))))
    }

    /// The elevation of the sun's centre at sunrise and sunset: the upper edge on the horizon, with
    /// standard refraction (34′) and the sun's semi-diameter (16′), as almanacs define them.
    public static let horizonElevation = -0.833

    /// Whether the sun is up (its upper edge above the horizon) at the place and time.
    public static func isDaylight(latitude: Double, longitude: Double, at time: Timestamp) -> Bool {
        elevation(latitude: latitude, longitude: longitude, at: time) > horizonElevation
    }

    private static func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }
    private static func degrees(_ radians: Double) -> Double { radians * 180 / Double.pi }
}

extension Int64 {
    /// The remainder of floor division, never negative for a positive divisor.
    fileprivate func modulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
