-- SPDX-License-Identifier: GPL-2.0-only
--
-- Wireshark dissector for the segments of the rudp ns-3 module: RudpSocket
-- (seed 000's reliable transport, its three variants) and the concurrent
-- multipath sender and receiver (RudpCmtSender, RudpCmtReceiver, and the
-- RudpCmtSocket association: INIT keys and address lists, HEARTBEATs,
-- address changes). The wire
-- format is RudpHeader's (model/rudp-header.h):
--
--   seq (4) | ack (4) | flags (1) | SACK block count (1) | payload length (2)
--   | receive window (4) | checksum (2, or 4 with the CRC32C flag)
--   | SACK blocks, count x (left (4), right (4)) | payload
--
-- all in network byte order, in the payload of a UDP datagram. The checksum
-- is RFC 1071's 16-bit one's-complement sum, or with the CRC32C flag (0x20)
-- SCTP's CRC-32c, over header and payload with the checksum field zero.
-- A HEARTBEAT (flag 0x40, RFC 9260 8.3) carries 20 bytes of heartbeat
-- information: path index (4), time sent (8, nanoseconds), nonce (8); its
-- HEARTBEAT ACK (0x40 with ACK) echoes them. A multipath INIT or INIT-ACK
-- carries its sender's association key (8) and addresses (4 each). An
-- ADDRESS_CHANGE (flag 0x80, RFC 5061's ASCONF) carries the receiver's key
-- as its tag (8), a serial number (4) and parameters of 6 bytes: type (1:
-- 1 ADD, 2 DELETE), result (1: 0 requested, 1 done, 2 refused), address (4);
-- with ACK it is the answer (ASCONF-ACK), the results filled in.
--
-- The byte stream of rudp-file-transfer (RudpFileSender) is decoded too: its
-- first data segment opens with a record (name length (2), name, file length
-- (8)), and the 32 bytes after the file are its SHA-256.
--
-- Use: copy this file into Wireshark's personal Lua plugin folder (Help >
-- About Wireshark > Folders > Personal Lua Plugins), or load it for one run:
--
--   wireshark -X lua_script:wireshark/rudp.lua capture.pcap
--   tshark -X lua_script:wireshark/rudp.lua -r capture.pcap -Y ns3rudp
--
-- Wireshark already has a protocol named "rudp" (Cisco's Reliable UDP), so
-- this one is "ns3rudp" (protocol filter, preferences ns3rudp.*), and its
-- fields, as Wireshark's convention has it, are under that name too
-- (ns3rudp.seq, ns3rudp.flags.syn, ns3rudp.checksum.status, ...). It is a
-- heuristic dissector on UDP (any port; "ns3rudp_udp" in Analyze > Enabled
-- Protocols) and the dissector of the UDP ports in the preference
-- ns3rudp.ports (the module's: 2222 file-transfer server, 3333 relay, 5000
-- CMT receiver). Written for Wireshark 3.x and 4.x (Lua 5.2 to 5.4), tested
-- with 4.0; doc/rudp.rst, "Reading the pcap files in Wireshark", has more.

local rudp = Proto("ns3rudp", "Reliable UDP (ns-3 rudp module)")

-- ---------------------------------------------------------------------------
-- 32-bit operations: Lua 5.2's bit32 (Wireshark up to 4.2), or Lua 5.3+'s
-- native operators (loaded from a string so that Lua 5.2 parses this file).

local band, bxor, rshift
if bit32 then
    band, bxor, rshift = bit32.band, bit32.bxor, bit32.rshift
else
    band, bxor, rshift = load([[
        return function(a, b) return (a & b) & 0xffffffff end,
               function(a, b) return (a ~ b) & 0xffffffff end,
               function(a, n) return (a & 0xffffffff) >> n end
    ]])()
end

local TWO32 = 4294967296

-- ---------------------------------------------------------------------------
-- Wire constants (model/rudp-header.h)

local FLAG_SYN = 0x01
local FLAG_ACK = 0x02
local FLAG_FIN = 0x04
local FLAG_SACK_PERMITTED = 0x08
local FLAG_PAIR = 0x10
local FLAG_CRC32C = 0x20
local FLAG_HEARTBEAT = 0x40
local FLAG_ADDRESS_CHANGE = 0x80
local INIT_KEY_SIZE = 8
local ADDRESS_CHANGE_HEADER_SIZE = 12 -- tag (8), serial number (4)
local ADDRESS_PARAMETER_SIZE = 6 -- type (1), result (1), address (4)
local ADDRESS_CHANGE_TYPES = { [1] = "ADD", [2] = "DELETE" }
local ADDRESS_CHANGE_RESULTS = { [0] = "requested", [1] = "done", [2] = "refused" }

local HEARTBEAT_INFO_SIZE = 20 -- path index (4), time sent (8), nonce (8)

local FIXED_SIZE = 18 -- with the 16-bit Internet checksum
local FIXED_SIZE_CRC32C = 20 -- with the 32-bit CRC-32c
local CHECKSUM_OFFSET = 16
local SACK_BLOCK_SIZE = 8
local MAX_SACK_BLOCKS = 16

local RECORD_FIXED = 10 -- name length (2) and file length (8) of the file record
local TRAILER_SIZE = 32 -- the SHA-256 after the file

-- Wireshark's checksum status convention (epan/proto.h, proto_checksum_vals).
local CHECKSUM_BAD = 0
local CHECKSUM_GOOD = 1
local CHECKSUM_UNVERIFIED = 2
local checksum_status_vals = {
    [0] = "Bad",
    [1] = "Good",
    [2] = "Unverified",
    [3] = "Not present",
    [4] = "Illegal",
}

-- ---------------------------------------------------------------------------
-- Fields

local f = {
    seq = ProtoField.uint32("ns3rudp.seq", "Sequence Number", base.DEC),
    seq_rel = ProtoField.uint32("ns3rudp.seq_rel", "Relative Sequence Number", base.DEC,
        nil, nil, "Sequence number relative to the direction's SYN"),
    nxtseq = ProtoField.uint32("ns3rudp.nxtseq", "Next Sequence Number", base.DEC),
    ack = ProtoField.uint32("ns3rudp.ack", "Acknowledgment Number", base.DEC),
    ack_rel = ProtoField.uint32("ns3rudp.ack_rel", "Relative Acknowledgment Number", base.DEC,
        nil, nil, "Acknowledgment number relative to the other direction's SYN"),
    flags = ProtoField.uint8("ns3rudp.flags", "Flags", base.HEX),
    flags_address_change = ProtoField.bool("ns3rudp.flags.address_change", "Address Change", 8, nil,
        FLAG_ADDRESS_CHANGE),
    flags_heartbeat = ProtoField.bool("ns3rudp.flags.heartbeat", "Heartbeat", 8, nil, FLAG_HEARTBEAT),
    flags_crc32c = ProtoField.bool("ns3rudp.flags.crc32c", "CRC-32c checksum", 8, nil, FLAG_CRC32C),
    flags_pair = ProtoField.bool("ns3rudp.flags.pair", "Pair (answers two segments)", 8, nil, FLAG_PAIR),
    flags_sack_permitted = ProtoField.bool("ns3rudp.flags.sack_permitted", "SACK permitted", 8, nil,
        FLAG_SACK_PERMITTED),
    flags_fin = ProtoField.bool("ns3rudp.flags.fin", "Fin", 8, nil, FLAG_FIN),
    flags_ack = ProtoField.bool("ns3rudp.flags.ack", "Acknowledgment", 8, nil, FLAG_ACK),
    flags_syn = ProtoField.bool("ns3rudp.flags.syn", "Syn", 8, nil, FLAG_SYN),
    flags_str = ProtoField.string("ns3rudp.flags.str", "Flags"),
    sack_count = ProtoField.uint8("ns3rudp.sack_count", "SACK Blocks", base.DEC),
    len = ProtoField.uint16("ns3rudp.len", "Payload Length", base.DEC),
    window = ProtoField.uint32("ns3rudp.window", "Receive Window", base.DEC),
    checksum = ProtoField.uint32("ns3rudp.checksum", "Checksum", base.HEX),
    checksum_kind = ProtoField.string("ns3rudp.checksum.kind", "Checksum Kind"),
    checksum_calculated = ProtoField.uint32("ns3rudp.checksum.calculated", "Calculated Checksum", base.HEX),
    checksum_status = ProtoField.uint8("ns3rudp.checksum.status", "Checksum Status", base.DEC,
        checksum_status_vals),
    sack = ProtoField.bytes("ns3rudp.sack", "SACK Block"),
    sack_left = ProtoField.uint32("ns3rudp.sack.left", "Left Edge", base.DEC),
    sack_right = ProtoField.uint32("ns3rudp.sack.right", "Right Edge", base.DEC),
    sack_size = ProtoField.uint32("ns3rudp.sack.size", "Bytes in Block", base.DEC),
    payload = ProtoField.bytes("ns3rudp.payload", "Payload"),
    heartbeat = ProtoField.none("ns3rudp.heartbeat", "Heartbeat Information"),
    heartbeat_path = ProtoField.uint32("ns3rudp.heartbeat.path", "Path Index", base.DEC),
    heartbeat_sent = ProtoField.uint64("ns3rudp.heartbeat.sent", "Time Sent (ns)", base.DEC),
    heartbeat_nonce = ProtoField.uint64("ns3rudp.heartbeat.nonce", "Nonce", base.HEX),
    init_key = ProtoField.uint64("ns3rudp.init.key", "Association Key", base.HEX),
    address_change = ProtoField.none("ns3rudp.asconf", "Address Change"),
    address_change_tag = ProtoField.uint64("ns3rudp.asconf.tag", "Tag (receiver's key)", base.HEX),
    address_change_serial = ProtoField.uint32("ns3rudp.asconf.serial", "Serial Number", base.DEC),
    address_change_type = ProtoField.uint8("ns3rudp.asconf.type", "Type", base.DEC, ADDRESS_CHANGE_TYPES),
    address_change_result = ProtoField.uint8("ns3rudp.asconf.result", "Result", base.DEC,
        ADDRESS_CHANGE_RESULTS),
    address_change_address = ProtoField.ipv4("ns3rudp.asconf.address", "Address"),
    init_address = ProtoField.ipv4("ns3rudp.init.address", "Address",
        "An address the sender of a multipath INIT or INIT-ACK announces (RudpCmtSocket)"),
    file_name_len = ProtoField.uint16("ns3rudp.file.name_len", "File Name Length", base.DEC),
    file_name = ProtoField.string("ns3rudp.file.name", "File Name"),
    file_length = ProtoField.uint64("ns3rudp.file.length", "File Length", base.DEC),
    file_data = ProtoField.bytes("ns3rudp.file.data", "File Data"),
    file_offset = ProtoField.uint32("ns3rudp.file.offset", "File Offset", base.DEC,
        nil, nil, "Offset in the file of this segment's first file byte (modulo 2^32)"),
    file_record = ProtoField.none("ns3rudp.file.record", "File Record"),
    file_sha256 = ProtoField.bytes("ns3rudp.file.sha256", "SHA-256 Trailer"),
    stream = ProtoField.uint32("ns3rudp.stream", "Stream Index", base.DEC),
    analysis = ProtoField.none("ns3rudp.analysis", "SEQ/ACK analysis"),
    analysis_retransmission = ProtoField.none("ns3rudp.analysis.retransmission",
        "This segment carries only sequence numbers already seen"),
}
rudp.fields = {
    f.seq, f.seq_rel, f.nxtseq, f.ack, f.ack_rel, f.flags, f.flags_address_change, f.flags_heartbeat,
    f.flags_crc32c, f.heartbeat, f.heartbeat_path, f.heartbeat_sent, f.heartbeat_nonce,
    f.flags_pair, f.flags_sack_permitted, f.flags_fin, f.flags_ack, f.flags_syn, f.flags_str,
    f.sack_count, f.len, f.window, f.checksum, f.checksum_kind, f.checksum_calculated,
    f.checksum_status, f.sack, f.sack_left, f.sack_right, f.sack_size, f.payload, f.init_address, f.init_key,
    f.address_change, f.address_change_tag, f.address_change_serial, f.address_change_type,
    f.address_change_result, f.address_change_address,
    f.file_record, f.file_name_len, f.file_name, f.file_length, f.file_data, f.file_offset, f.file_sha256,
    f.stream, f.analysis, f.analysis_retransmission,
}

local ef = {
    checksum_bad = ProtoExpert.new("ns3rudp.checksum.bad.expert", "Bad checksum",
        expert.group.CHECKSUM, expert.severity.ERROR),
    malformed = ProtoExpert.new("ns3rudp.malformed", "Malformed RUDP segment",
        expert.group.MALFORMED, expert.severity.ERROR),
    retransmission = ProtoExpert.new("ns3rudp.analysis.retransmission.expert",
        "Retransmission of a sequence range already seen", expert.group.SEQUENCE,
        expert.severity.NOTE),
}
rudp.experts = { ef.checksum_bad, ef.malformed, ef.retransmission }

-- ---------------------------------------------------------------------------
-- Preferences

local DEFAULT_PORTS = "2222,3333,5000"
rudp.prefs.ports = Pref.range("UDP ports", DEFAULT_PORTS,
    "UDP ports always decoded as RUDP (rudp-file-transfer's server 2222 and relay 3333, "
        .. "RudpCmtReceiver's 5000); on other ports the heuristic finds RUDP", 65535)
rudp.prefs.check_checksum = Pref.bool("Validate the checksum", true,
    "Verify the Internet checksum or CRC-32c of every segment (status Unverified when off)")
rudp.prefs.file_record = Pref.bool("Decode the file transfer's stream", true,
    "Show the first data segment's file record (name, length) and the SHA-256 trailer "
        .. "of rudp-file-transfer's stream")
rudp.prefs.analyze = Pref.bool("Analyze sequence numbers", true,
    "Mark segments that carry only sequence numbers already seen in the same direction "
        .. "(retransmissions), and show relative sequence numbers")

-- ---------------------------------------------------------------------------
-- Checksums over a Lua string of the whole segment

local CHUNK = 4096 -- string.byte returns this many values at most at a time

-- RFC 1071: the 16-bit one's-complement sum, complemented, with the checksum
-- field (bytes 17-18, 1-based) taken as zero.
local function internet16(s)
    local sum = 0
    local n = #s
    local i = 1
    while i <= n do
        local last = math.min(i + CHUNK - 1, n)
        local bytes = { string.byte(s, i, last) }
        for k = 1, #bytes - 1, 2 do
            sum = sum + bytes[k] * 256 + bytes[k + 1]
        end
        if #bytes % 2 == 1 then
            sum = sum + bytes[#bytes] * 256 -- an odd end (CHUNK is even: only the last)
        end
        i = last + 1
    end
    sum = sum - (string.byte(s, 17) * 256 + string.byte(s, 18))
    while sum > 0xffff do
        sum = (sum % 65536) + math.floor(sum / 65536)
    end
    return 0xffff - sum
end

local crc_table = {}
for b = 0, 255 do
    local crc = b
    for _ = 1, 8 do
        if band(crc, 1) == 1 then
            crc = bxor(rshift(crc, 1), 0x82f63b78)
        else
            crc = rshift(crc, 1)
        end
    end
    crc_table[b] = crc
end

-- CRC-32c (Castagnoli, reflected, as SCTP's) with the checksum field (bytes
-- 17-20, 1-based) taken as zero.
local function crc32c(s)
    local crc = 0xffffffff
    local n = #s
    local i = 1
    while i <= n do
        local last = math.min(i + CHUNK - 1, n)
        local bytes = { string.byte(s, i, last) }
        for k = 1, #bytes do
            local b = bytes[k]
            local pos = i + k - 1
            if pos >= 17 and pos <= 20 then
                b = 0
            end
            crc = bxor(rshift(crc, 8), crc_table[band(bxor(crc, b), 0xff)])
        end
        i = last + 1
    end
    return bxor(crc, 0xffffffff)
end

-- ---------------------------------------------------------------------------
-- Conversation state, rebuilt from the start of every dissection pass

local directions -- "src:port>dst:port" -> { isn, max_end, record, trailer_rel, ... }
local streams -- "a:port|b:port" (sorted) -> index
local stream_count
local frames -- frame number -> what the first pass found about it

local function reset()
    directions = {}
    streams = {}
    stream_count = 0
    frames = {}
end
reset()
rudp.init = reset

local function direction_key(src, sport, dst, dport)
    return tostring(src) .. ":" .. sport .. ">" .. tostring(dst) .. ":" .. dport
end

local function stream_index(pinfo)
    local a = tostring(pinfo.src) .. ":" .. pinfo.src_port
    local b = tostring(pinfo.dst) .. ":" .. pinfo.dst_port
    local key = a < b and (a .. "|" .. b) or (b .. "|" .. a)
    local index = streams[key]
    if index == nil then
        index = stream_count
        streams[key] = index
        stream_count = stream_count + 1
    end
    return index
end

local function mod32(x)
    return x % TWO32
end

-- ---------------------------------------------------------------------------
-- Structure check: enough to tell RUDP from other UDP payloads

-- Returns the header size if tvb holds a well-formed segment whose payload
-- length field matches the datagram, else nil.
local function well_formed(tvb)
    local n = tvb:len()
    if n < FIXED_SIZE then
        return nil
    end
    local flags = tvb(8, 1):uint()
    local fixed = band(flags, FLAG_CRC32C) ~= 0 and FIXED_SIZE_CRC32C or FIXED_SIZE
    local blocks = tvb(9, 1):uint()
    if blocks > MAX_SACK_BLOCKS then
        return nil
    end
    local header = fixed + SACK_BLOCK_SIZE * blocks
    if n ~= header + tvb(10, 2):uint() then
        return nil
    end
    return header
end

-- ---------------------------------------------------------------------------
-- The file transfer's stream (RudpFileSender)

-- Adds the record and the trailer found in this segment's payload.
-- rel: the payload's first byte relative to the direction's SYN (1 = the
-- stream's first byte); state: the direction's state.
local function dissect_file_stream(tvb, payload_offset, payload_len, rel, state, tree, pinfo)
    local infos = {}
    local data_start = 0 -- payload bytes before the file's bytes
    local data_end = payload_len -- payload bytes up to the end of the file's bytes
    if rel == 1 and payload_len >= 2 then
        local name_len = tvb(payload_offset, 2):uint()
        local record_len = RECORD_FIXED + name_len
        if payload_len >= record_len then
            local record = tree:add(f.file_record, tvb(payload_offset, record_len))
            record:add(f.file_name_len, tvb(payload_offset, 2))
            local name = tvb(payload_offset + 2, name_len):string(ENC_UTF_8)
            record:add(f.file_name, tvb(payload_offset + 2, name_len), name)
            local length_range = tvb(payload_offset + 2 + name_len, 8)
            record:add(f.file_length, length_range)
            local length = length_range:uint64():tonumber()
            record:append_text(string.format(": %s, %.0f bytes", name, length))
            if not pinfo.visited then
                state.record = { name = name, length = length, record_len = record_len }
            end
            infos[#infos + 1] = string.format("File %s (%.0f bytes)", name, length)
            data_start = record_len
        end
    end
    local r = state.record
    if r == nil then
        return infos
    end
    -- Stream offsets relative to the SYN: file bytes [1 + record_len, trailer).
    local file_start = 1 + r.record_len
    local trailer = mod32(file_start + r.length)
    local into = mod32(trailer - rel) -- trailer's offset in this payload
    local past = mod32(rel - trailer) -- this payload's offset in the trailer
    local t_from, t_len, t_part
    if into < payload_len then
        t_from, t_part = into, 0
        t_len = math.min(TRAILER_SIZE, payload_len - into)
        data_end = into
    elseif past < TRAILER_SIZE then
        t_from, t_part = 0, past
        t_len = math.min(TRAILER_SIZE - past, payload_len)
        data_end = 0
    end
    if data_end > data_start then
        local item = tree:add(f.file_data, tvb(payload_offset + data_start, data_end - data_start))
        item:set_text(string.format("File data: %d bytes", data_end - data_start))
        local offset = mod32(rel + data_start - file_start)
        item:add(f.file_offset, offset):set_generated()
    end
    if t_from ~= nil then
        local item = tree:add(f.file_sha256, tvb(payload_offset + t_from, t_len))
        if t_len < TRAILER_SIZE then
            item:append_text(string.format(" (bytes %d-%d of 32)", t_part, t_part + t_len - 1))
        end
        infos[#infos + 1] = "SHA-256 trailer"
    end
    return infos
end

-- ---------------------------------------------------------------------------
-- The dissector

local function flags_string(flags)
    local names = {}
    for _, pair in ipairs({
        { FLAG_SYN, "SYN" }, { FLAG_FIN, "FIN" }, { FLAG_ACK, "ACK" },
        { FLAG_SACK_PERMITTED, "SACK_PERMITTED" }, { FLAG_PAIR, "PAIR" },
        { FLAG_HEARTBEAT, "HEARTBEAT" },
        { FLAG_ADDRESS_CHANGE, "ADDRESS_CHANGE" },
    }) do
        if band(flags, pair[1]) ~= 0 then
            names[#names + 1] = pair[2]
        end
    end
    return table.concat(names, ", ")
end

local function dissect(tvb, pinfo, tree)
    local n = tvb:len()
    if n < FIXED_SIZE then
        return 0
    end
    pinfo.cols.protocol = "RUDP"
    local flags = tvb(8, 1):uint()
    local crc = band(flags, FLAG_CRC32C) ~= 0
    local fixed = crc and FIXED_SIZE_CRC32C or FIXED_SIZE
    local subtree = tree:add(rudp, tvb(0, math.min(n, fixed)))
    if n < fixed then
        subtree:add_proto_expert_info(ef.malformed,
            string.format("%d bytes: shorter than the %d-byte CRC-32c header", n, fixed))
        pinfo.cols.info:set("[Malformed RUDP: short]")
        return n
    end

    local seq = tvb(0, 4):uint()
    local ack = tvb(4, 4):uint()
    local blocks = tvb(9, 1):uint()
    local len = tvb(10, 2):uint()
    local window = tvb(12, 4):uint()
    local checksum_width = crc and 4 or 2
    local checksum = tvb(CHECKSUM_OFFSET, checksum_width):uint()
    local sack_fits = blocks <= MAX_SACK_BLOCKS and fixed + SACK_BLOCK_SIZE * blocks <= n
    local header_len = sack_fits and fixed + SACK_BLOCK_SIZE * blocks or fixed
    subtree:set_len(header_len)
    local payload_len = n - header_len

    local key = direction_key(pinfo.src, pinfo.src_port, pinfo.dst, pinfo.dst_port)
    local state = directions[key]
    if state == nil then
        state = {}
        directions[key] = state
    end
    local reverse = directions[direction_key(pinfo.dst, pinfo.dst_port, pinfo.src, pinfo.src_port)]
    local stream = stream_index(pinfo)
    subtree:add(f.stream, stream):set_generated()

    -- Header fields
    subtree:add(f.seq, tvb(0, 4))
    local analyze = rudp.prefs.analyze
    local frame = frames[pinfo.number]
    if frame == nil then
        frame = {}
        frames[pinfo.number] = frame
    end
    if not pinfo.visited and band(flags, FLAG_SYN) ~= 0 then
        state.isn = seq
    end
    if analyze and state.isn ~= nil then
        subtree:add(f.seq_rel, mod32(seq - state.isn)):set_generated()
    end
    -- A heartbeat's information, or an address change, is no data: it takes
    -- no sequence numbers.
    local heartbeat = band(flags, FLAG_HEARTBEAT) ~= 0
    local address_change = band(flags, FLAG_ADDRESS_CHANGE) ~= 0
    local consumed = ((heartbeat or address_change) and 0 or payload_len) + (band(flags, FLAG_SYN) ~= 0 and 1 or 0)
        + (band(flags, FLAG_FIN) ~= 0 and 1 or 0)
    if consumed > 0 then
        subtree:add(f.nxtseq, mod32(seq + consumed)):set_generated()
    end
    subtree:add(f.ack, tvb(4, 4))
    if analyze and band(flags, FLAG_ACK) ~= 0 and reverse ~= nil and reverse.isn ~= nil then
        subtree:add(f.ack_rel, mod32(ack - reverse.isn)):set_generated()
    end

    local flags_item = subtree:add(f.flags, tvb(8, 1))
    flags_item:append_text(" (" .. (flags_string(flags) ~= "" and flags_string(flags) or "none")
        .. (crc and "; CRC-32c" or "") .. ")")
    flags_item:add(f.flags_address_change, tvb(8, 1))
    flags_item:add(f.flags_heartbeat, tvb(8, 1))
    flags_item:add(f.flags_crc32c, tvb(8, 1))
    flags_item:add(f.flags_pair, tvb(8, 1))
    flags_item:add(f.flags_sack_permitted, tvb(8, 1))
    flags_item:add(f.flags_fin, tvb(8, 1))
    flags_item:add(f.flags_ack, tvb(8, 1))
    flags_item:add(f.flags_syn, tvb(8, 1))
    flags_item:add(f.flags_str, tvb(8, 1), flags_string(flags) ~= "" and flags_string(flags) or "<None>")
        :set_generated()

    local count_item = subtree:add(f.sack_count, tvb(9, 1))
    if not sack_fits then
        count_item:add_proto_expert_info(ef.malformed, string.format(
            "%d SACK blocks: more than %d, or past the datagram's end", blocks, MAX_SACK_BLOCKS))
    end
    local len_item = subtree:add(f.len, tvb(10, 2))
    if len ~= payload_len then
        len_item:add_proto_expert_info(ef.malformed,
            string.format("The datagram carries %d payload bytes, the header says %d", payload_len, len))
    end
    subtree:add(f.window, tvb(12, 4))

    -- Checksum, as Wireshark's proto_tree_add_checksum shows it
    local checksum_item = subtree:add(f.checksum, tvb(CHECKSUM_OFFSET, checksum_width))
    local status = CHECKSUM_UNVERIFIED
    local calculated
    if rudp.prefs.check_checksum then
        local bytes = tvb:raw(0, n)
        calculated = crc and crc32c(bytes) or internet16(bytes)
        status = calculated == checksum and CHECKSUM_GOOD or CHECKSUM_BAD
    end
    local fmt = crc and "0x%08x" or "0x%04x"
    local kind = crc and "CRC-32c" or "Internet16"
    if status == CHECKSUM_GOOD then
        checksum_item:set_text(string.format("Checksum: " .. fmt .. " [correct] (%s)", checksum, kind))
    elseif status == CHECKSUM_BAD then
        checksum_item:set_text(string.format("Checksum: " .. fmt .. " incorrect, should be " .. fmt
            .. " (%s)", checksum, calculated, kind))
    else
        checksum_item:set_text(string.format("Checksum: " .. fmt .. " [unverified] (%s)", checksum, kind))
    end
    checksum_item:add(f.checksum_kind, kind):set_generated()
    if calculated ~= nil then
        checksum_item:add(f.checksum_calculated, tvb(CHECKSUM_OFFSET, checksum_width), calculated)
            :set_text(string.format("Calculated Checksum: " .. fmt, calculated)):set_generated()
    end
    checksum_item:add(f.checksum_status, status):set_generated()
    if status == CHECKSUM_BAD then
        checksum_item:add_proto_expert_info(ef.checksum_bad,
            string.format("Bad checksum [should be " .. fmt .. "]", calculated))
    end

    -- SACK blocks
    local sack_texts = {}
    if sack_fits then
        for b = 0, blocks - 1 do
            local offset = fixed + SACK_BLOCK_SIZE * b
            local left = tvb(offset, 4):uint()
            local right = tvb(offset + 4, 4):uint()
            local size = mod32(right - left)
            local block = subtree:add(f.sack, tvb(offset, SACK_BLOCK_SIZE))
            if reverse ~= nil and reverse.isn ~= nil and analyze then
                block:set_text(string.format("SACK block: [%u, %u) (relative [%u, %u)), %u bytes",
                    left, right, mod32(left - reverse.isn), mod32(right - reverse.isn), size))
            else
                block:set_text(string.format("SACK block: [%u, %u), %u bytes", left, right, size))
            end
            block:add(f.sack_left, tvb(offset, 4))
            block:add(f.sack_right, tvb(offset + 4, 4))
            block:add(f.sack_size, size):set_generated()
            if reverse ~= nil and reverse.isn ~= nil and analyze then
                sack_texts[#sack_texts + 1] = string.format("SLE=%u SRE=%u",
                    mod32(left - reverse.isn), mod32(right - reverse.isn))
            else
                sack_texts[#sack_texts + 1] = string.format("SLE=%u SRE=%u", left, right)
            end
        end
    end

    -- Retransmission analysis: a data segment whose every sequence number was
    -- seen earlier in this direction (the first pass decides; later passes,
    -- as when Wireshark's GUI redissects a frame, reuse its finding).
    if not pinfo.visited and payload_len > 0 and not heartbeat and not address_change
        and status ~= CHECKSUM_BAD and sack_fits then
        local seg_end = mod32(seq + payload_len)
        if state.max_end ~= nil and mod32(state.max_end - seg_end) < TWO32 / 2 then
            frame.retransmission = true
        elseif state.max_end == nil or mod32(seg_end - state.max_end) < TWO32 / 2 then
            state.max_end = seg_end
        end
    end
    if analyze and frame.retransmission then
        local analysis = subtree:add(f.analysis)
        analysis:set_generated()
        local item = analysis:add(f.analysis_retransmission)
        item:set_generated()
        item:add_proto_expert_info(ef.retransmission)
    end

    -- Payload
    local infos = {}
    if payload_len > 0 then
        local payload_item = subtree:add(f.payload, tvb(header_len, payload_len))
        payload_item:set_text(string.format("Payload: %d bytes", payload_len))
        if heartbeat then
            -- RFC 9260 8.3's Heartbeat Info, as RudpCmtHeartbeatInfo writes it.
            payload_item:set_text(string.format("Heartbeat Information: %d bytes", payload_len))
            local kind = band(flags, FLAG_ACK) ~= 0 and "HEARTBEAT ACK" or "HEARTBEAT"
            if payload_len == HEARTBEAT_INFO_SIZE then
                local info = payload_item:add(f.heartbeat, tvb(header_len, payload_len))
                info:add(f.heartbeat_path, tvb(header_len, 4))
                info:add(f.heartbeat_sent, tvb(header_len + 4, 8))
                info:add(f.heartbeat_nonce, tvb(header_len + 12, 8))
                infos[#infos + 1] = string.format("%s path=%u nonce=0x%s", kind,
                    tvb(header_len, 4):uint(), string.lower(tostring(tvb(header_len + 12, 8):bytes())))
            else
                payload_item:add_proto_expert_info(ef.malformed, string.format(
                    "%s information of %d bytes: %d expected", kind, payload_len, HEARTBEAT_INFO_SIZE))
                infos[#infos + 1] = kind .. " (malformed)"
            end
        elseif address_change then
            -- RFC 5061's ASCONF or ASCONF-ACK, as RudpCmtAddressChange writes it.
            local kind = band(flags, FLAG_ACK) ~= 0 and "ADDRESS_CHANGE ACK" or "ADDRESS_CHANGE"
            local parameters = (payload_len - ADDRESS_CHANGE_HEADER_SIZE) / ADDRESS_PARAMETER_SIZE
            if payload_len > ADDRESS_CHANGE_HEADER_SIZE and parameters == math.floor(parameters) then
                local change = payload_item:add(f.address_change, tvb(header_len, payload_len))
                change:add(f.address_change_tag, tvb(header_len, 8))
                change:add(f.address_change_serial, tvb(header_len + 8, 4))
                local words = {}
                for i = 0, parameters - 1 do
                    local at = header_len + ADDRESS_CHANGE_HEADER_SIZE + ADDRESS_PARAMETER_SIZE * i
                    local type = tvb(at, 1):uint()
                    local result = tvb(at + 1, 1):uint()
                    local address = tostring(tvb(at + 2, 4):ipv4())
                    local parameter = change:add(f.address_change_type, tvb(at, 1))
                    parameter:add(f.address_change_result, tvb(at + 1, 1))
                    parameter:add(f.address_change_address, tvb(at + 2, 4))
                    local word = (ADDRESS_CHANGE_TYPES[type] or "?") .. " " .. address
                    if band(flags, FLAG_ACK) ~= 0 then
                        word = word .. " " .. (ADDRESS_CHANGE_RESULTS[result] or "?")
                    end
                    parameter:set_text(word)
                    words[#words + 1] = word
                end
                payload_item:set_text(string.format("Address Change: %d parameters", parameters))
                infos[#infos + 1] = string.format("%s serial=%u %s", kind,
                    tvb(header_len + 8, 4):uint(), table.concat(words, ", "))
            else
                payload_item:add_proto_expert_info(ef.malformed, string.format(
                    "%s of %d bytes: 12 + 6 per parameter expected", kind, payload_len))
                infos[#infos + 1] = kind .. " (malformed)"
            end
        elseif band(flags, FLAG_SYN) ~= 0 and payload_len > INIT_KEY_SIZE
            and (payload_len - INIT_KEY_SIZE) % 4 == 0 then
            -- A multipath association's INIT or INIT-ACK: its sender's key and addresses.
            payload_item:add(f.init_key, tvb(header_len, INIT_KEY_SIZE))
            local addresses = {}
            for i = 0, (payload_len - INIT_KEY_SIZE) / 4 - 1 do
                local range = tvb(header_len + INIT_KEY_SIZE + 4 * i, 4)
                payload_item:add(f.init_address, range)
                addresses[#addresses + 1] = tostring(range:ipv4())
            end
            payload_item:set_text(string.format("Addresses: %d", #addresses))
            infos[#infos + 1] = "Addresses=" .. table.concat(addresses, ",")
        elseif rudp.prefs.file_record and state.isn ~= nil and status ~= CHECKSUM_BAD then
            local rel = mod32(seq - state.isn)
            infos = dissect_file_stream(tvb, header_len, payload_len, rel, state, payload_item, pinfo)
        end
    end

    -- Info column, in TCP's style
    local info = string.format("%d → %d [%s] Seq=%u", pinfo.src_port, pinfo.dst_port,
        flags ~= 0 and flags ~= FLAG_CRC32C and flags_string(flags) or "<None>", (analyze and state.isn ~= nil) and mod32(seq - state.isn) or seq)
    if band(flags, FLAG_ACK) ~= 0 then
        info = info .. string.format(" Ack=%u", (analyze and reverse ~= nil and reverse.isn ~= nil)
            and mod32(ack - reverse.isn) or ack)
    end
    info = info .. string.format(" Win=%u Len=%d", window, len)
    if #sack_texts > 0 then
        info = info .. " " .. table.concat(sack_texts, " ")
    end
    if crc then
        info = info .. " CRC-32c"
    end
    if #infos > 0 then
        info = info .. " " .. table.concat(infos, ", ")
    end
    if analyze and frame.retransmission then
        info = "[RUDP Retransmission] " .. info
    end
    if status == CHECKSUM_BAD then
        info = "[Bad checksum] " .. info
    end
    pinfo.cols.info:set(info)
    subtree:append_text(string.format(", Seq: %u%s, Len: %d", (analyze and state.isn ~= nil)
        and mod32(seq - state.isn) or seq, band(flags, FLAG_ACK) ~= 0 and (", Ack: " .. ((analyze
        and reverse ~= nil and reverse.isn ~= nil) and mod32(ack - reverse.isn) or ack)) or "", len))
    return n
end

rudp.dissector = dissect

-- The heuristic: a well-formed segment (at most 16 SACK blocks, a payload length that matches the datagram) whose checksum is
-- right, so that other UDP traffic is left alone (a random datagram passes
-- both by chance about once in 10^10). Once a datagram is taken, the UDP
-- conversation is RUDP's: later datagrams on it, corrupted ones too, come to
-- this dissector.
local function heuristic(tvb, pinfo, tree)
    if well_formed(tvb) == nil then
        return false
    end
    local bytes = tvb:raw(0, tvb:len())
    local stored = band(tvb(8, 1):uint(), FLAG_CRC32C) ~= 0 and tvb(CHECKSUM_OFFSET, 4):uint()
        or tvb(CHECKSUM_OFFSET, 2):uint()
    local calculated = band(tvb(8, 1):uint(), FLAG_CRC32C) ~= 0 and crc32c(bytes) or internet16(bytes)
    if calculated ~= stored then
        return false
    end
    dissect(tvb, pinfo, tree)
    pinfo.conversation = rudp
    return true
end

rudp:register_heuristic("udp", heuristic)

-- The port preference: the ports are RUDP's, whatever the heuristic says.
local udp_port_table = DissectorTable.get("udp.port")
local registered_ports = DEFAULT_PORTS
udp_port_table:add(registered_ports, rudp)

function rudp.prefs_changed()
    local ports = tostring(rudp.prefs.ports)
    if ports ~= registered_ports then
        if registered_ports ~= "" then
            udp_port_table:remove(registered_ports, rudp)
        end
        registered_ports = ports
        if ports ~= "" then
            udp_port_table:add(ports, rudp)
        end
    end
end
