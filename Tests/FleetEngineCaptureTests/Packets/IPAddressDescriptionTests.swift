import FleetEngineCapture
import Testing

@Suite("IPAddress descriptions")
struct IPAddressDescriptionTests {
    @Test(
        "IPv6 addresses are written as RFC 5952 says",
        arguments: [
            (IPAddress.v6(0x2001_0DB8_0000_0000, 0x0000_0000_0000_0001), "2001:db8::1"),
            (.v6(0, 1), "::1"),
            (.v6(0, 0), "::"),
            (.v6(0x2001_0DB8_0000_0001, 0x0001_0001_0001_0001), "2001:db8:0:1:1:1:1:1"),
            (.v6(0x2001_0000_0000_0001, 0x0000_0000_0000_0001), "2001:0:0:1::1"),
            (.v6(0x2001_0DB8_0000_0000, 0x0001_0000_0000_0001), "2001:db8::1:0:0:1"),
            (.v6(0xFE80_0000_0000_0000, 0x0202_B3FF_FE1E_8329), "fe80::202:b3ff:fe1e:8329"),
            (.v6(0x2001_0DB8_0000_0000, 0), "2001:db8::"),
            (.v6(0, 0xFFFF_C000_0280), "::ffff:c000:280"),
            (.v6(0xABCD_EF01_2345_6789, 0xABCD_EF01_2345_6789), "abcd:ef01:2345:6789:abcd:ef01:2345:6789"),
        ]
    )
    func ipv6(address: IPAddress, text: String) {
        #expect(address.description == text)
    }

    @Test("IPv4 addresses are dotted decimal")
    func ipv4() {
        #expect(IPAddress.v4(0x7F00_0001).description == "127.0.0.1")
        #expect(IPAddress.v4(0xFFFF_FFFF).description == "255.255.255.255")
        #expect(IPAddress.v4(0).description == "0.0.0.0")
    }

    @Test("endpoints put IPv6 addresses in brackets")
    func endpoints() {
        #expect(TCPEndpoint(address: .v6(0, 1), port: 443).description == "[::1]:443")
        #expect(TCPEndpoint(address: .v4(0xC000_0201), port: 50_051).description == "192.0.2.1:50051")
    }
}
