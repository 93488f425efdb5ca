"""bench/coupling_losses.py: overflows, each flow's growth and cuts, from a trace."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import coupling_losses  # noqa: E402

#: A TCP flow and two paths, measured from 10 s to 20 s: the TCP flow grows
#: by 2000 bytes and is cut by 6000, the first path grows by 1000 and is
#: cut by 3000, the second stays; three drops in two overflows.
TRACE = """time_s\tflow\tevent\tvalue
5\ttcp0\tcwnd\t10000
5\tp0\tcwnd\t5000
5\tp1\tcwnd\t5000
6\ttcp0\tdrop\t1
12\ttcp0\tcwnd\t12000
13\tp0\tcwnd\t6000
13.95\ttcp0\tdrop\t1
14\tp0\tdrop\t1
14\ttcp0\tcwnd\t6000
14\ttcp0\tssthresh\t6000
14\tp0\tcwnd\t3000
14\tp0\tssthresh\t3000
15\ttcp0\trtt\t0.1
15\tp0\trtt\t0.1
15\tp1\trtt\t0.1
16\ttcp0\tdrop\t1
20\ttcp0\trtt\t0.1
"""


def summary(gap: float = 0.1) -> coupling_losses.TraceSummary:
    flows, end = coupling_losses.read_trace(TRACE.splitlines(keepends=True), 10)
    return coupling_losses.summarize(flows, end, gap)


def test_drops_close_together_are_one_overflow() -> None:
    assert coupling_losses.overflows([16, 13.95, 14], 0.1) == [(13.95, 14), (16, 16)]
    assert summary().overflows == 2
    assert summary(gap=0.01).overflows == 3


def test_each_flow_and_the_association_from_the_warmup_on() -> None:
    result = summary()
    assert result.duration == 10
    tcp = result.flow("tcp0")
    assert (tcp.drops, tcp.overflows_hit, tcp.cuts) == (2, 2, 1)
    assert tcp.window == pytest.approx(8000)  # 10000 for 2 s, 12000 for 2, 6000 for 6
    assert (tcp.growth, tcp.loss) == (2000, 6000)
    assert tcp.growth_per_rtt(result.duration) == pytest.approx(20)
    assert tcp.cut_per_overflow(result.overflows) == pytest.approx(0.375)
    association = result.flow(coupling_losses.ASSOCIATION)
    assert (association.drops, association.overflows_hit, association.cuts) == (1, 1, 1)
    assert association.window == pytest.approx(3900 + 5000)
    assert (association.growth, association.loss) == (1000, 3000)
    window, growth, cut = result.ratios()
    assert window == pytest.approx(8900 / 8000)
    assert growth == pytest.approx(0.5)
    assert cut == pytest.approx((3000 / 2 / 8900) / 0.375)


def test_the_table_and_its_decomposition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = tmp_path / "trace.tsv"
    trace.write_text(TRACE)
    assert coupling_losses.main([str(trace), str(trace), "--warmup", "10"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:3] == ["flow", "drops", "overflows"]
    rows = {line.split()[0]: line.split()[1:] for line in out[2:6]}
    assert rows["association"][:3] == ["1", "1", "(50%)"]
    assert rows["tcp0"][:4] == ["2", "2", "(100%)", "1"]
    assert out[-2].endswith("window 1.11 = growth 0.50 x 1/cut 2.23")
    assert out[-1].startswith("mean of 2: window 1.11, growth 0.50, 1/cut 2.23")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["missing.tsv"], "missing.tsv: No such file or directory"),
        (["TRACE", "--overflow-gap", "0"], "--overflow-gap: more than 0"),
        (["TRACE", "--warmup", "30"], "it ends at 30 s, not after the warmup"),
        (["ONLY_TCP", "--warmup", "10"], "no path or no TCP flow with a window after the warmup"),
    ],
)
def test_bad_input_is_refused_by_name(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = tmp_path / "trace.tsv"
    trace.write_text(TRACE)
    only_tcp = tmp_path / "only-tcp.tsv"
    only_tcp.write_text("".join(line for line in TRACE.splitlines(True) if "\tp" not in line))
    argv = [str(only_tcp) if arg == "ONLY_TCP" else arg for arg in argv]
    argv = [
        str(trace) if arg == "TRACE" else str(tmp_path / arg) if arg.endswith(".tsv") else arg
        for arg in argv
    ]
    with pytest.raises(SystemExit) as exit_info:
        coupling_losses.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
