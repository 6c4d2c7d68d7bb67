"""The ``grandstrategy aa odds`` command: JSON keys, text output, bad input -> one line and exit 2."""

from __future__ import annotations

import json

import pytest

from grandstrategy.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["aa", "odds", *args])
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 1), out, err


def test_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--attacker", "1 infantry", "--defender", "1 inf", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    for key in (
        "attacker_win",
        "defender_win",
        "draw",
        "attacker_survivors",
        "defender_survivors",
        "method",
        "compute_ms",
    ):
        assert key in data
    assert data["method"] == "exact"
    assert abs(data["attacker_win"] - 0.25) < 1e-12 and abs(data["draw"] - 0.125) < 1e-12


def test_text_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["--rules", "lhtr", "-a", "3 inf, 1 art, 2 arm, 1 ftr", "-d", "4 inf, 1 ftr, 1 aa"], capsys
    )
    assert code == 0
    assert "attacker wins" in out and "TUV swing" in out and "method: exact" in out


def test_monte_carlo_states_its_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["-a", "2 inf", "-d", "1 inf", "--method", "monte-carlo", "--trials", "2000", "--json"], capsys
    )
    data = json.loads(out)
    assert code == 0 and data["method"] == "monte-carlo" and data["standard_errors"]["attacker_win"] > 0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-a", "2 zeppelin", "-d", "1 inf"], "unknown unit 'zeppelin'"),
        (["-a", "-2 inf", "-d", "1 inf"], "negative count"),
        (["-a", "1 hart", "-d", "1 inf"], "not part of rule set 'revised'"),
        (["-a", "1 inf", "-d", "1 dd"], "sea unit"),
        (["-a", "1 inf", "-d", "1 dd", "--sea"], "cannot fight in a sea battle"),
        (["-a", "1 aa", "-d", "1 inf"], "only defends"),
        (["--rules", "aarhe", "-a", "1 bb", "-d", "1 inf"], "sea unit"),
        (["--rules", "nope", "-a", "1 inf", "-d", "1 inf"], "unknown rule set"),
        (["-a", "1 inf", "-d", "1 inf", "--retreat-after", "0"], "retreat-after"),
        (["-a", "1 inf", "-d", "1 inf", "--order", "inf,blimp"], "unknown unit 'blimp'"),
    ],
)
def test_bad_input_exit_2(args: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(args, capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]
    assert "Traceback" not in err
