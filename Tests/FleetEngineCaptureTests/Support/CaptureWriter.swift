import FleetEngineCapture

/// Builds a pcap or pcapng capture file in memory, for tests that need capture input.
///
/// ```swift
/// var writer = CaptureWriter(format: .pcapng, linkType: .ethernet)
/// writer.append(packet: LinkLayer.ethernet.wrap(ipPacket), timestamp: CaptureTimestamp(seconds: 1, nanoseconds: 0))
/// var reader = CaptureFileReader()
/// reader.append(writer.bytes)
/// ```
///
/// A pcap writer writes the 24-byte file header at once; a pcapng writer writes a Section Header
/// Block and one Interface Description Block per interface given. Later pcapng sections,
/// interfaces, Simple Packet Blocks and arbitrary blocks can be added with the methods in
/// `CaptureWriter+PcapNG.swift`. Every `append` returns the file offset where its record or block
/// starts, so tests can corrupt it or check error offsets; ``lastPacketDataOffset`` is where the
/// last packet's bytes start.
struct CaptureWriter {
    /// The file format to write.
    enum Format: Hashable {
        /// Classic pcap with microsecond or nanosecond timestamps, in either byte order.
        case pcap(nanosecond: Bool, bigEndian: Bool)
        /// pcapng, its first section in the given byte order.
        case pcapng(bigEndian: Bool)

        /// Little-endian microsecond pcap, what tcpdump writes on x86 and ARM.
        static let pcap = Format.pcap(nanosecond: false, bigEndian: false)
        /// Little-endian pcapng.
        static let pcapng = Format.pcapng(bigEndian: false)
    }

    /// A pcapng timestamp unit, as option if_tsresol encodes it.
    enum TimestampResolution: Hashable {
        /// 10^-exponent seconds.
        case decimal(Int)
        /// 2^-exponent seconds.
        case binary(Int)

        /// 10^-6 seconds, the pcapng default (no option is written for it).
        static let microseconds = TimestampResolution.decimal(6)
        /// 10^-9 seconds.
        static let nanoseconds = TimestampResolution.decimal(9)
    }

    /// One pcapng interface: what its packets start with and how its timestamps are written.
    struct Interface: Hashable {
        var linkType: LinkType
        var snapLength: UInt32 = 262_144
        var timestampResolution: TimestampResolution = .microseconds
        /// Seconds the reader adds to every timestamp (if_tsoffset); the writer subtracts them.
        var timestampOffset: Int64 = 0
    }

    /// The format being written.
    let format: Format
    /// The file so far.
    var bytes: [UInt8] { fields.bytes }
    /// The file offset of the last packet's first byte.
    var lastPacketDataOffset = 0
    /// The interfaces of the current pcapng section, in the order they were described.
    var interfaces: [Interface]
    /// The link type of a pcap file.
    let pcapLinkType: LinkType

    var fields: CaptureFieldWriter

    /// A writer whose file has one link type: a pcap file header or a pcapng section with one
    /// interface.
    init(
        format: Format,
        linkType: LinkType = .ethernet,
        snapLength: UInt32 = 262_144,
        timestampResolution: TimestampResolution = .microseconds,
        timestampOffset: Int64 = 0
    ) {
        self.init(
            format: format,
            interfaces: [
                Interface(
                    linkType: linkType,
                    snapLength: snapLength,
                    timestampResolution: timestampResolution,
                    timestampOffset: timestampOffset
                )
            ]
        )
    }

    /// A writer whose pcapng section describes `interfaces` (none is allowed, for tests of packets
    /// without an interface); a pcap file uses the first interface's link type and snap length.
    init(format: Format, interfaces: [Interface]) {
        self.format = format
        self.interfaces = []
        let first = interfaces.first ?? Interface(linkType: .ethernet)
        self.pcapLinkType = first.linkType
        switch format {
        case .pcap(let nanosecond, let bigEndian):
            fields = CaptureFieldWriter(bigEndian: bigEndian)
            // draft-ietf-opsawg-pcap section 4: magic, version 2.4, two reserved fields, snap
            // length, link type.
            fields.uint32(nanosecond ? 0xA1B2_3C4D : 0xA1B2_C3D4)
            fields.uint16(2)
            fields.uint16(4)
            fields.uint32(0)
            fields.uint32(0)
            fields.uint32(first.snapLength)
            fields.uint32(first.linkType.rawValue)
        case .pcapng(let bigEndian):
            fields = CaptureFieldWriter(bigEndian: bigEndian)
            beginSection(bigEndian: bigEndian, interfaces: interfaces)
        }
    }

    /// A whole capture file of `packets`, each wrapped in `link` and captured `interval`
    /// nanoseconds after the one before, the first at `start`.
    static func file(
        of ipPackets: [[UInt8]],
        link: LinkLayer = .ethernet,
        format: Format = .pcap,
        start: CaptureTimestamp = CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 0),
        interval: Int64 = 1_000
    ) -> [UInt8] {
        let resolution: TimestampResolution = .nanoseconds
        var writer = CaptureWriter(format: format, linkType: link.linkType, timestampResolution: resolution)
        for (index, packet) in ipPackets.enumerated() {
            let nanoseconds = Int64(start.nanoseconds) + Int64(index) * interval
            let timestamp = CaptureTimestamp(
                seconds: start.seconds + nanoseconds / 1_000_000_000,
                nanoseconds: UInt32(nanoseconds % 1_000_000_000)
            )
            writer.append(packet: link.wrap(packet), timestamp: timestamp)
        }
        return writer.bytes
    }

    /// Appends a packet: a pcap record, or a pcapng Enhanced Packet Block on `interface`.
    ///
    /// The timestamp is cut to the file's resolution. `originalLength` defaults to the packet's
    /// length; give a larger one to write a packet cut by the snap length.
    @discardableResult
    mutating func append(
        packet: [UInt8],
        timestamp: CaptureTimestamp = CaptureTimestamp(seconds: 0, nanoseconds: 0),
        originalLength: Int? = nil,
        interface: Int = 0
    ) -> Int {
        switch format {
        case .pcap(let nanosecond, _):
            let start = fields.bytes.count
            fields.uint32(UInt32(truncatingIfNeeded: timestamp.seconds))
            fields.uint32(nanosecond ? timestamp.nanoseconds : timestamp.nanoseconds / 1000)
            fields.uint32(UInt32(packet.count))
            fields.uint32(UInt32(originalLength ?? packet.count))
            lastPacketDataOffset = fields.bytes.count
            fields.append(packet)
            return start
        case .pcapng:
            let units = Self.units(of: timestamp, on: interfaces[interface])
            return append(packet: packet, timestampUnits: units, originalLength: originalLength, interface: interface)
        }
    }

    /// The ticks of `interface`'s clock that stand for `timestamp`, rounded down.
    static func units(of timestamp: CaptureTimestamp, on interface: Interface) -> UInt64 {
        let seconds = UInt64(timestamp.seconds - interface.timestampOffset)
        let nanoseconds = UInt64(timestamp.nanoseconds)
        switch interface.timestampResolution {
        case .decimal(let exponent):
            var perSecond: UInt64 = 1
            for _ in 0..<exponent { perSecond *= 10 }
            return exponent <= 9
                ? seconds * perSecond + nanoseconds / (1_000_000_000 / perSecond)
                : seconds * perSecond + nanoseconds * (perSecond / 1_000_000_000)
        case .binary(let exponent):
            return seconds << UInt64(exponent) + (nanoseconds << UInt64(exponent)) / 1_000_000_000
        }
    }
}
