"""The Wireshark dissector (wireshark/rudp.lua) against the module's own captures.

``rudp-file-transfer --pcap`` and ``rudp-cmt --pcap`` write pcap files; Debian's
``tshark`` decodes them with the dissector, and what it reads off the wire must
agree with what the run's JSON record counted: the segments the client sent,
the retransmissions, the file's name, length and SHA-256, the checksum kind,
and the checksum failures the receiver counted (the corrupted segments in the
receiver's capture). ``scripts/install-tool-deps.sh tshark`` installs tshark if
it is missing (apt-get); if it cannot, these tests fail, they never skip.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rudp import paths

pytestmark = pytest.mark.programs("rudp-file-transfer", "rudp-cmt")

DISSECTOR = paths.REPO_ROOT / "wireshark" / "rudp.lua"
INSTALLER = paths.REPO_ROOT / "scripts" / "install-tool-deps.sh"

#: Wireshark's checksum status values (proto_checksum_vals).
BAD, GOOD = 0, 1

#: The fields every decode reads.
FIELDS = (
    "ip.src",
    "udp.srcport",
    "ns3rudp.seq",
    "ns3rudp.seq_rel",
    "ns3rudp.ack",
    "ns3rudp.ack_rel",
    "ns3rudp.flags",
    "ns3rudp.flags.syn",
    "ns3rudp.flags.ack",
    "ns3rudp.flags.fin",
    "ns3rudp.flags.sack_permitted",
    "ns3rudp.flags.pair",
    "ns3rudp.flags.crc32c",
    "ns3rudp.flags.heartbeat",
    "ns3rudp.flags.address_change",
    "ns3rudp.heartbeat.path",
    "ns3rudp.heartbeat.sent",
    "ns3rudp.heartbeat.nonce",
    "ns3rudp.len",
    "ns3rudp.window",
    "ns3rudp.checksum",
    "ns3rudp.checksum.kind",
    "ns3rudp.checksum.status",
    "ns3rudp.sack_count",
    "ns3rudp.sack.left",
    "ns3rudp.sack.right",
    "ns3rudp.file.name",
    "ns3rudp.file.length",
    "ns3rudp.file.sha256",
    "ns3rudp.analysis.retransmission",
    "ns3rudp.init.address",
    "ns3rudp.init.key",
    "ns3rudp.asconf.tag",
    "ns3rudp.asconf.serial",
    "ns3rudp.asconf.type",
    "ns3rudp.asconf.result",
    "ns3rudp.asconf.address",
    "_ws.expert.message",
)


@pytest.fixture(scope="session")
def tshark() -> str:
    """tshark with Lua, installed by the project's script when it is missing."""
    done = subprocess.run([str(INSTALLER), "tshark"], check=False, timeout=1800)
    if done.returncode != 0:
        pytest.fail(
            f"{INSTALLER.name} tshark failed (status {done.returncode}): the dissector's "
            "tests need Debian's tshark (apt-get install tshark)",
            pytrace=False,
        )
    found = shutil.which("tshark")
    assert found, "install-tool-deps.sh tshark succeeded but tshark is not on PATH"
    return found


@dataclass(frozen=True)
class Segment:
    """One decoded frame: the fields of FIELDS, as tshark prints them."""

    frame: int
    values: dict[str, str]

    def __getitem__(self, field: str) -> str:
        return self.values[field]

    def number(self, field: str) -> int:
        return int(self.values[field], 0)

    def numbers(self, field: str) -> list[int]:
        text = self.values[field]
        return [int(v, 0) for v in text.split(",")] if text else []

    def flag(self, name: str) -> bool:
        return self.values[f"ns3rudp.flags.{name}"] in {"1", "True"}

    @property
    def is_rudp(self) -> bool:
        return self.values["ns3rudp.flags"] != ""

    @property
    def retransmission(self) -> bool:
        return self.values["ns3rudp.analysis.retransmission"] != ""


def decode(
    tshark: str, pcap: Path, *options: str, display_filter: str = "udp && !icmp"
) -> list[Segment]:
    """The frames of ``pcap`` that match ``display_filter``, decoded by the dissector."""
    command = [
        tshark,
        "-n",
        "-X",
        f"lua_script:{DISSECTOR}",
        "-r",
        str(pcap),
        "-T",
        "fields",
        "-E",
        "separator=\t",
        "-E",
        "occurrence=a",
        "-E",
        "aggregator=,",
        "-Y",
        display_filter,
        "-e",
        "frame.number",
        *(arg for field in FIELDS for arg in ("-e", field)),
        *options,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "Lua" not in done.stderr, done.stderr  # a script that does not load says so here
    segments = []
    for line in done.stdout.splitlines():
        number, *values = line.split("\t")
        segment = Segment(int(number), dict(zip(FIELDS, values, strict=True)))
        assert "Lua Error" not in segment["_ws.expert.message"], (pcap, segment)
        segments.append(segment)
    return segments


@dataclass(frozen=True)
class Run:
    """A program's run: its JSON record and its pcap files by node."""

    record: dict[str, Any]
    prefix: Path

    def pcaps(self, node: int) -> list[Path]:
        found = sorted(self.prefix.parent.glob(f"{self.prefix.name}-{node}-*.pcap"))
        assert found, f"no pcap of node {node} under {self.prefix}"
        return found

    def pcap(self, node: int) -> Path:
        (only,) = self.pcaps(node)
        return only


def run_program(directory: Path, program: str, *args: str) -> Run:
    prefix = directory / "capture"
    output = directory / "run.json"
    done = subprocess.run(
        [str(paths.program(program)), *args, f"--pcap={prefix}", f"--output={output}"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(output.read_text())
    assert record["ok"] is True
    return Run(record, prefix)


# --- rudp-file-transfer ---------------------------------------------------------

CLIENT, SERVER = 0, 2  # nodes: client, router, server
CLIENT_IP, SERVER_IP = "10.1.1.1", "10.1.2.2"

#: name: (command-line options, checksum kind the dissector must name)
TRANSFERS = {
    # The seed's checksum, Go-Back-N without SACK, a little loss.
    "internet-go-back-n": (
        ("--variant=go-back-n", "--loss=0.02", "--size=120000", "--checksum=internet"),
        "Internet16",
    ),
    # CRC-32c and SACK blocks under loss.
    "crc32c-sack-loss": (
        ("--variant=reno", "--sack=1", "--loss=0.05", "--size=200000", "--checksum=crc32c"),
        "CRC-32c",
    ),
}


@pytest.fixture(scope="module", params=sorted(TRANSFERS))
def transfer(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Run:
    options, _ = TRANSFERS[request.param]
    return run_program(tmp_path_factory.mktemp(request.param), "rudp-file-transfer", *options)


def _kind(run: Run) -> str:
    return "CRC-32c" if run.record["checksum"] == "crc32c" else "Internet16"


def test_every_datagram_of_a_transfer_is_rudp_with_a_good_checksum(
    tshark: str, transfer: Run
) -> None:
    for node in (CLIENT, SERVER):
        segments = decode(tshark, transfer.pcap(node))
        assert segments
        for segment in segments:
            assert segment.is_rudp, segment
            assert segment["ns3rudp.checksum.kind"] == _kind(transfer)
            assert segment.flag("crc32c") == (transfer.record["checksum"] == "crc32c")
            assert segment.number("ns3rudp.checksum.status") == GOOD, segment
            assert segment["ns3rudp.sack_count"] == str(len(segment.numbers("ns3rudp.sack.left")))


def test_the_client_capture_counts_what_the_record_counts(tshark: str, transfer: Run) -> None:
    record = transfer.record
    segments = decode(tshark, transfer.pcap(CLIENT))
    sent = [s for s in segments if s["ip.src"] == CLIENT_IP]
    received = [s for s in segments if s["ip.src"] == SERVER_IP]
    assert len(sent) == record["segments_sent"] == record["data_tx_packets"]
    assert len(received) == record["ack_rx_packets"]
    # Retransmissions: data segments whose sequence numbers were all sent before.
    assert sum(s.retransmission for s in sent) == record["retransmissions"]
    # Handshake and close: the client's SYN opens, the server answers SYN|ACK,
    # each side sends a FIN.
    assert sent[0].flag("syn") and not sent[0].flag("ack")
    assert sent[0].flag("sack_permitted") == record["sack"]
    syn_acks = [s for s in received if s.flag("syn")]
    assert syn_acks and all(s.flag("ack") for s in syn_acks)
    assert syn_acks[0].number("ns3rudp.ack") == sent[0].number("ns3rudp.seq") + 1
    assert any(s.flag("fin") for s in sent) and any(s.flag("fin") for s in received)
    assert all(not s.flag("syn") for s in sent[1:] if s.number("ns3rudp.len") > 0)


def test_the_stream_carries_the_record_the_file_and_its_sha256(tshark: str, transfer: Run) -> None:
    record = transfer.record
    sent = [s for s in decode(tshark, transfer.pcap(CLIENT)) if s["ip.src"] == CLIENT_IP]
    records = {
        (s["ns3rudp.file.name"], s.number("ns3rudp.file.length"))
        for s in sent
        if s["ns3rudp.file.name"]
    }
    assert records == {(record["file"], record["file_size"])}
    # The trailer as first sent (a retransmission repeats it).
    trailer = "".join(
        s["ns3rudp.file.sha256"] for s in sent if s["ns3rudp.file.sha256"] and not s.retransmission
    )
    assert trailer.replace(":", "") == record["sha256_sent"]
    # The FIN follows the stream: record (2 + name + 8), file, trailer (32),
    # relative to the SYN's sequence number.
    fin = next(s for s in sent if s.flag("fin"))
    assert (
        fin.number("ns3rudp.seq_rel") == 1 + 2 + len(record["file"]) + 8 + record["file_size"] + 32
    )


def test_sack_blocks_lie_beyond_the_cumulative_ack(tshark: str, transfer: Run) -> None:
    acks = [
        s
        for s in decode(tshark, transfer.pcap(CLIENT))
        if s["ip.src"] == SERVER_IP and s.flag("ack")
    ]
    blocks = [
        (s.number("ns3rudp.ack"), left, right)
        for s in acks
        for left, right in zip(
            s.numbers("ns3rudp.sack.left"), s.numbers("ns3rudp.sack.right"), strict=True
        )
    ]
    if not transfer.record["sack"]:
        assert blocks == []
        return
    assert blocks, "a lossy SACK transfer without a SACK block"
    for ack, left, right in blocks:
        # [left, right) above the cumulative ACK, in 32-bit sequence space.
        assert 0 < (left - ack) % 2**32 < (right - ack) % 2**32 < 2**31


def test_the_heuristic_finds_rudp_on_any_port(tshark: str, transfer: Run) -> None:
    pcap = transfer.pcap(SERVER)
    by_port = decode(tshark, pcap)
    by_heuristic = decode(tshark, pcap, "-o", "ns3rudp.ports:")
    assert [s.values for s in by_heuristic] == [s.values for s in by_port]
    # Without the port preference and the heuristic, nothing is RUDP: the
    # heuristic is what found them.
    neither = decode(tshark, pcap, "-o", "ns3rudp.ports:", "--disable-heuristic", "ns3rudp_udp")
    assert neither and not any(s.is_rudp for s in neither)


def test_the_fields_are_under_the_protocols_filter_name(tshark: str, transfer: Run) -> None:
    """Wireshark's convention: protocol ``ns3rudp``'s fields are ``ns3rudp.*``.

    ``rudp`` is the filter name of Cisco's Reliable UDP, whose ``rudp.seq`` is an 8-bit field.
    """
    named = re.findall(r'Proto(?:Field\.\w+|Expert\.new)\(\s*"([^"]+)"', DISSECTOR.read_text())
    assert len(named) > 40
    assert [name for name in named if not name.startswith("ns3rudp.")] == []
    pcap = transfer.pcap(SERVER)
    ours = decode(tshark, pcap, display_filter="ns3rudp")
    assert ours and all(s.is_rudp for s in ours)
    acks = decode(tshark, pcap, display_filter="ns3rudp.flags.ack == 1")
    assert acks and len(acks) < len(ours) and all(s.flag("ack") for s in acks)


@pytest.mark.parametrize("checksum", ["internet", "crc32c"])
def test_corrupted_segments_are_the_receivers_checksum_errors(
    tshark: str, tmp_path: Path, checksum: str
) -> None:
    # Point-to-point links: ns-3's PointToPointNetDevice hands its pcap the
    # frame its error model corrupted (a CSMA device hands it the frame as sent).
    run = run_program(
        tmp_path,
        "rudp-file-transfer",
        "--link=p2p",
        "--variant=reno",
        "--sack=1",
        "--corruption=0.05",
        "--size=300000",
        f"--checksum={checksum}",
    )
    errors = run.record["checksum_errors"]
    assert errors > 0
    for options in ((), ("-o", "ns3rudp.ports:")):  # by port, and by the heuristic alone
        server = decode(tshark, run.pcap(SERVER), *options)
        bad = [s for s in server if s.number("ns3rudp.checksum.status") == BAD]
        assert len(bad) == errors
        for segment in bad:
            assert segment["ip.src"] == CLIENT_IP  # only client-to-server datagrams are hit
            assert "Bad checksum" in segment["_ws.expert.message"]
    client = decode(tshark, run.pcap(CLIENT))
    assert all(s.number("ns3rudp.checksum.status") == GOOD for s in client)
    # Checking off: every status is Unverified (2), none Bad.
    unchecked = decode(tshark, run.pcap(SERVER), "-o", "ns3rudp.check_checksum:FALSE")
    assert {s["ns3rudp.checksum.status"] for s in unchecked} == {"2"}


# --- rudp-cmt --------------------------------------------------------------------


@pytest.mark.parametrize("checksum", ["internet", "crc32c"])
def test_cmt_paths_carry_what_each_path_counted(tshark: str, tmp_path: Path, checksum: str) -> None:
    run = run_program(
        tmp_path,
        "rudp-cmt",
        "--paths=2",
        "--loss=0.01",
        "--duration=3s",
        "--warmup=1s",
        f"--checksum={checksum}",
    )
    paths_stats = run.record["path_stats"]
    sender_pcaps = run.pcaps(0)
    assert len(sender_pcaps) == len(paths_stats)
    kind = "CRC-32c" if checksum == "crc32c" else "Internet16"
    sacks = 0
    for index, (pcap, stats) in enumerate(zip(sender_pcaps, paths_stats, strict=True)):
        segments = decode(tshark, pcap)
        sender_ip = f"10.{index + 1}.1.1"
        data = [s for s in segments if s["ip.src"] == sender_ip]
        answers = [s for s in segments if s["ip.src"] != sender_ip]
        assert all(s.is_rudp and s["ns3rudp.checksum.kind"] == kind for s in segments)
        assert all(s.number("ns3rudp.checksum.status") == GOOD for s in segments)
        assert sum(s.number("ns3rudp.len") for s in data) == stats["bytes_sent"]
        assert sum(s.retransmission for s in data) == stats["retransmissions"]
        # No handshake: the association starts with data; the receiver answers
        # with SACKs (ACK, and PAIR when one answers two segments).
        assert not any(s.flag("syn") or s.flag("fin") for s in segments)
        assert answers and all(s.flag("ack") and s.number("ns3rudp.len") == 0 for s in answers)
        sacks += sum(s.number("ns3rudp.sack_count") > 0 for s in answers)
    assert sum(s["retransmissions"] for s in paths_stats) == run.record["retransmissions"]
    assert sacks > 0  # 1 % loss leaves holes that SACK blocks report


# --- rudp-multipath: the multipath socket's set-up ----------------------------------


@pytest.mark.programs("rudp-multipath")
def test_multipath_set_up_announces_each_ends_addresses(tshark: str, tmp_path: Path) -> None:
    prefix = tmp_path / "capture"
    done = subprocess.run(
        [str(paths.program("rudp-multipath")), "--bytes=300000", f"--pcap={prefix}"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    wlan, cell = sorted(tmp_path.glob("capture-0-*.pcap"))  # the phone's two radios
    init, init_ack, *rest = decode(tshark, wlan)
    assert init.flag("syn") and not init.flag("ack")
    assert init["ns3rudp.init.address"] == "10.1.1.1,10.2.1.1"  # the phone's
    assert init_ack.flag("syn") and init_ack.flag("ack")
    assert init_ack["ns3rudp.init.address"] == "10.1.2.2,10.2.2.2"  # the server's
    # Each end's association key, random: two keys, neither zero.
    keys = {init["ns3rudp.init.key"], init_ack["ns3rudp.init.key"]}
    assert len(keys) == 2 and all(key and int(key, 16) != 0 for key in keys)
    assert all(s.is_rudp and s.number("ns3rudp.checksum.status") == GOOD for s in rest)
    assert all(s["ns3rudp.init.address"] == "" for s in rest)
    # A path per server address, each on its own radio: data from each radio's address.
    for pcap, radio in ((wlan, "10.1.1.1"), (cell, "10.2.1.1")):
        data = [
            s for s in decode(tshark, pcap) if s.number("ns3rudp.len") > 0 and not s.flag("syn")
        ]
        assert data and {s["ip.src"] for s in data} == {radio}


# --- Malformed segments (written here, byte by byte) ------------------------------


def _pcap(path: Path, payloads: list[bytes], port: int = 40000) -> None:
    """A pcap of Ethernet/IPv4/UDP frames from 10.0.0.1:port to 10.0.0.2:port."""
    frames = []
    for payload in payloads:
        udp = struct.pack("!HHHH", port, port, 8 + len(payload), 0) + payload
        ip = struct.pack(
            "!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0, b"\n\0\0\1", b"\n\0\0\2"
        )
        frames.append(b"\0\0\0\0\0\2\0\0\0\0\0\1\x08\0" + ip + udp)
    with path.open("wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, frame in enumerate(frames):
            out.write(struct.pack("<IIII", i, 0, len(frame), len(frame)) + frame)


def _internet16(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total: int = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def _segment(seq: int, flags: int, payload: bytes, blocks: int = 0, length: int = -1) -> bytes:
    """An Internet16 segment; ``blocks`` and ``length`` may lie about what follows."""
    header = struct.pack(
        "!IIBBHI", seq, 0, flags, blocks, len(payload) if length < 0 else length, 65535
    )
    checksum = _internet16(header + b"\0\0" + payload)
    return header + struct.pack("!H", checksum) + payload


@pytest.fixture
def crafted(tmp_path: Path) -> Iterator[Path]:
    pcap = tmp_path / "crafted.pcap"
    _pcap(
        pcap,
        [
            _segment(1000, 0x01, b""),  # SYN: good
            _segment(1001, 0x00, b"0123456789"),  # data: good
            _segment(1011, 0x00, b"abc", length=7),  # payload length lies
            _segment(1011, 0x00, b"a" * 40, blocks=17),  # too many SACK blocks
            bytes(_segment(1011, 0x00, b"abcd")[:-1]) + b"e",  # corrupted payload byte
        ],
    )
    yield pcap


def test_malformed_and_corrupted_segments_are_flagged(tshark: str, crafted: Path) -> None:
    # On port 40000 only the UDP conversation the SYN opened makes the
    # malformed ones RUDP: the heuristic would not take them.
    syn, data, lying, blocks, corrupted = decode(tshark, crafted)
    assert [s.number("ns3rudp.checksum.status") for s in (syn, data)] == [GOOD, GOOD]
    assert data.number("ns3rudp.seq_rel") == 1
    assert all(s.is_rudp for s in (lying, blocks, corrupted))
    # Malformed with a right checksum (the sender lied): malformed, not Bad.
    assert lying.number("ns3rudp.checksum.status") == GOOD
    assert "the header says 7" in lying["_ws.expert.message"]
    assert blocks.number("ns3rudp.checksum.status") == GOOD
    assert "17 SACK blocks" in blocks["_ws.expert.message"]
    # A flipped payload byte: Bad, with the expert info.
    assert corrupted.number("ns3rudp.checksum.status") == BAD
    assert "Bad checksum" in corrupted["_ws.expert.message"]
    assert "Bad checksum" not in data["_ws.expert.message"]


# --- HEARTBEAT and HEARTBEAT ACK (RFC 9260 8.3; RudpCmtHeartbeatInfo) --------------


def _heartbeat_info(path: int, sent_ns: int, nonce: int) -> bytes:
    """RudpCmtHeartbeatInfo's 20 bytes: path index, time sent (ns), nonce."""
    return struct.pack("!IqQ", path, sent_ns, nonce)


def test_heartbeats_and_their_acks_are_dissected(tshark: str, tmp_path: Path) -> None:
    pcap = tmp_path / "heartbeats.pcap"
    info = _heartbeat_info(2, 12_345_678_901, 0x0123456789ABCDEF)
    _pcap(
        pcap,
        [
            _segment(1000, 0x01, b""),  # SYN: opens the conversation
            _segment(0, 0x40, info),  # HEARTBEAT
            _segment(0, 0x42, info),  # its HEARTBEAT ACK, the information echoed
            _segment(1001, 0x00, b"0123456789"),  # data: not a retransmission of the heartbeat
            _segment(0, 0x40, info[:7]),  # a HEARTBEAT with 7 bytes of information
        ],
    )
    syn, heartbeat, ack, data, short = decode(tshark, pcap)
    for segment, is_ack in ((heartbeat, False), (ack, True)):
        assert segment.flag("heartbeat") and segment.flag("ack") == is_ack
        assert segment.number("ns3rudp.checksum.status") == GOOD
        assert segment.number("ns3rudp.heartbeat.path") == 2
        assert segment.number("ns3rudp.heartbeat.sent") == 12_345_678_901
        assert segment.number("ns3rudp.heartbeat.nonce") == 0x0123456789ABCDEF
        assert segment["_ws.expert.message"] == ""
    assert not syn.flag("heartbeat") and not data.flag("heartbeat")
    assert data.number("ns3rudp.seq_rel") == 1 and not data.retransmission
    assert short.flag("heartbeat") and short["ns3rudp.heartbeat.path"] == ""
    assert "HEARTBEAT information of 7 bytes: 20 expected" in short["_ws.expert.message"]


# --- ADDRESS_CHANGE and its ACK (RFC 5061's ASCONF; RudpCmtAddressChange) -----------


def _address_change(tag: int, serial: int, parameters: list[tuple[int, int, str]]) -> bytes:
    """RudpCmtAddressChange's bytes: tag, serial number, then type, result, address each."""
    body = struct.pack("!QI", tag, serial)
    for kind, result, address in parameters:
        body += struct.pack("!BB", kind, result) + bytes(int(b) for b in address.split("."))
    return body


def test_address_changes_and_their_acks_are_dissected(tshark: str, tmp_path: Path) -> None:
    pcap = tmp_path / "address-changes.pcap"
    asked = [(1, 0, "10.2.1.2"), (2, 0, "10.1.1.1")]
    answered = [(1, 1, "10.2.1.2"), (2, 2, "10.1.1.1")]
    _pcap(
        pcap,
        [
            _segment(1000, 0x01, b""),  # SYN: opens the conversation
            _segment(0, 0x80, _address_change(0xFEEDFACECAFEBEEF, 3, asked)),
            _segment(0, 0x82, _address_change(0x0123456789ABCDEF, 3, answered)),
            _segment(1001, 0x00, b"0123456789"),  # data: the changes took no sequence numbers
            _segment(0, 0x80, b"\0" * 13),  # ragged
        ],
    )
    syn, change, ack, data, ragged = decode(tshark, pcap)
    for segment, is_ack in ((change, False), (ack, True)):
        assert segment.flag("address_change") and segment.flag("ack") == is_ack
        assert segment.number("ns3rudp.checksum.status") == GOOD
        assert segment.number("ns3rudp.asconf.serial") == 3
        assert segment["ns3rudp.asconf.type"] == "1,2"
        assert segment["ns3rudp.asconf.address"] == "10.2.1.2,10.1.1.1"
        assert segment["_ws.expert.message"] == ""
    assert change.number("ns3rudp.asconf.tag") == 0xFEEDFACECAFEBEEF
    assert change["ns3rudp.asconf.result"] == "0,0"
    assert ack["ns3rudp.asconf.result"] == "1,2"
    assert not syn.flag("address_change")
    assert data.number("ns3rudp.seq_rel") == 1 and not data.retransmission
    assert "ADDRESS_CHANGE of 13 bytes" in ragged["_ws.expert.message"]


def test_heartbeat_info_column_names_the_kind_path_and_nonce(tshark: str, tmp_path: Path) -> None:
    pcap = tmp_path / "heartbeat-info.pcap"
    info = _heartbeat_info(1, 5, 0xFEEDFACECAFEBEEF)
    _pcap(pcap, [_segment(1000, 0x01, b""), _segment(0, 0x40, info), _segment(0, 0x42, info)])
    done = subprocess.run(
        (
            tshark,
            "-n",
            "-X",
            f"lua_script:{DISSECTOR}",
            "-r",
            str(pcap),
            "-T",
            "fields",
            "-e",
            "_ws.col.Info",
        ),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert "[HEARTBEAT]" in lines[1] and "HEARTBEAT path=1 nonce=0xfeedfacecafebeef" in lines[1]
    assert "[ACK, HEARTBEAT]" in lines[2] and "HEARTBEAT ACK path=1" in lines[2]
