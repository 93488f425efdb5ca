"""bench/phone_failover.py and rudp-phone: a phone's radios through a Wi-Fi outage."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import phone_failover  # noqa: E402

#: A short walk: out of reach from 2 s to about 11 s.
WALK = [
    "--duration=20s",
    "--walk-out=2s",
    "--walk-back=8s",
    "--distance=60",
    "--speed=20",
    "--interval=1s",
]


@pytest.mark.programs("rudp-phone")
@pytest.mark.parametrize("cellular", phone_failover.CELLULAR)
def test_the_full_mesh_uses_both_radios_and_sctp_paths_one(cellular: str, tmp_path: Path) -> None:
    mesh = phone_failover.run("full-mesh", WALK, tmp_path, cellular)
    sctp = phone_failover.run("sctp", WALK, tmp_path, cellular)
    assert mesh.record["cellular"] == sctp.record["cellular"] == cellular
    radios = {r["radio"]: r for r in mesh.record["radios"]}  # type: ignore[attr-defined]
    assert set(radios) == {"wifi", "cellular"}
    assert radios["wifi"]["bytes_before"] > 0 and radios["cellular"]["bytes_before"] > 0
    # Out of the Wi-Fi's reach the cellular path carries on: the server
    # receives every second of the walk.
    out_of_reach = [b for t, b in mesh.series["server"] if 6 <= t <= 9]
    assert out_of_reach and min(out_of_reach) > 0
    # The Wi-Fi's path sends nothing once the station's link is down; before
    # that, at most one segment, on its retransmission timer (with LTE: the
    # timer at 5.081 s, the link down at 5.091 s, when the station has missed
    # its AP's beacons).
    assert sum(b for t, b in mesh.series["wifi"] if 6 <= t <= 9) <= 1452
    # Back in reach (from about 11 s) the Wi-Fi's path returns with its link,
    # not after the probes' backed-off timer (tens of seconds).
    assert sum(b for t, b in mesh.series["wifi"] if 13 <= t <= 20) > 10_000_000
    # One path without the mesh: the routing's, the cellular radio.
    assert [r["radio"] for r in sctp.record["radios"]] == ["path0"]  # type: ignore[attr-defined]
    assert mesh.record["received_bytes"] > 2 * sctp.record["received_bytes"]  # type: ignore[operator]
    assert 0 < mesh.record["failover_s"] < 5  # type: ignore[operator]


def test_the_table_has_a_line_per_radio() -> None:
    record: dict[str, object] = {
        "radios": [
            {"radio": "wifi", "bytes_before": 2e6, "bytes_during": 1e6, "bytes_after": 3e6},
            {"radio": "cellular", "bytes_before": 1e6, "bytes_during": 4e6, "bytes_after": 1e6},
        ],
        "goodput_mbps": 12.5,
        "failover_s": 1.25,
        "longest_gap_s": 1.5,
    }
    lines = phone_failover.table([phone_failover.PhoneRun("full-mesh", record)]).splitlines()
    assert len(lines) == 3
    assert lines[1].split() == [
        "full-mesh",
        "p2p",
        "wifi",
        "2.00",
        "1.00",
        "3.00",
        "12.50",
        "1.250",
        "1.500",
    ]


@pytest.mark.parametrize(
    ("argv", "named"),
    [(["--duration=10"], "--duration"), (["--cellular=p2p,5g"], "--cellular")],
)
def test_a_bad_option_is_refused(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        phone_failover.main(argv)
    assert exit_.value.code == 2
    assert named in capsys.readouterr().err


@pytest.mark.programs("rudp-phone")
@pytest.mark.parametrize(
    "walk",
    [
        ["--walk-out=0s", "--walk-back=8s"],  # walks from the start
        ["--walk-out=2s", "--walk-back=5s"],  # back as soon as it arrives (60 m at 20 m/s)
        ["--distance=0", "--walk-out=2s", "--walk-back=2s"],  # does not walk
    ],
)
def test_a_walk_the_options_allow_runs(walk: list[str], tmp_path: Path) -> None:
    """Every walk the options allow runs (before, these aborted: waypoints at one time)."""
    phone = phone_failover.run(
        "full-mesh", ["--duration=3s", "--distance=60", "--speed=20", *walk], tmp_path
    )
    assert phone.record["ok"] is True
