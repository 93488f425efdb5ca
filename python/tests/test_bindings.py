"""The module's classes from Python through ns-3's cppyy bindings."""

from __future__ import annotations

from typing import Any

import pytest

from rudp import bindings, paths

pytestmark = pytest.mark.skipif(
    not paths.library().is_file(), reason="the module is not built (make setup)"
)


@pytest.fixture(scope="module")
def ns() -> Any:
    return bindings.load()


def test_socket_attribute_reads_back(ns: Any) -> None:
    socket = ns.CreateObject[ns.RudpSocket]()
    window = ns.UintegerValue()
    socket.GetAttribute("WindowSize", window)
    assert window.Get() == 30
    socket.SetAttribute("WindowSize", ns.UintegerValue(5))
    socket.GetAttribute("WindowSize", window)
    assert window.Get() == 5


def test_python_callback_sees_traced_congestion_window(ns: Any) -> None:
    state = ns.CreateObject[ns.RudpSenderState]()
    # Data members are written through the raw pointer: on the Ptr proxy an
    # assignment would only create a Python attribute.
    raw = ns.PeekPointer(state)
    raw.m_segmentSize = 1000
    raw.m_windowSegments = 30
    raw.m_initialCwnd = 2
    raw.m_initialSsThresh = 64000
    raw.m_dupAckThreshold = 3
    seen: list[tuple[int, int]] = []
    assert bindings.connect_trace(
        state, "CongestionWindow", lambda old, new: seen.append((old, new)), "uint32_t", "uint32_t"
    )
    reno = ns.CreateObject[ns.RudpReno]()
    reno.Init(state)  # cwnd = 2 MSS
    reno.OnNewAck(state, 1)  # slow start: + 1 MSS
    assert seen == [(0, 2000), (2000, 3000)]
    assert raw.CwndInSegments() == 3


def test_header_round_trip_from_python(ns: Any) -> None:
    header = ns.RudpHeader()
    header.SetSequenceNumber(ns.SequenceNumber32(41))
    header.SetFlags(ns.RudpHeader.SYN)
    packet = ns.Packet()
    header.ComputeChecksum(packet)
    packet.AddHeader(header)
    back = ns.RudpHeader()
    packet.RemoveHeader(back)
    assert back.GetSequenceNumber().GetValue() == 41
    assert back.IsChecksumOk(packet)
    assert ns.RudpHeader.FlagsToString(back.GetFlags()) == "SYN"
