"""``grandstrategy serve``: a database it cannot open is one clear line and a non-zero exit."""

from __future__ import annotations

import pytest

from grandstrategy.cli import main


@pytest.mark.parametrize(
    ("url", "reason"),
    [("nonsense://x", "Can't load plugin"), ("sqlite:////no-such-directory/x.db", "unable to open")],
)
def test_serve_with_a_bad_database_says_so(url: str, reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["serve", "--db", url])
    assert leaving.value.code != 0
    err = capsys.readouterr().err
    assert f"cannot open the database {url!r}" in err and reason in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--create-limit", "lots"], "'lots' is not COUNT/SECONDS"),
        (["--create-limit", "0/60"], "must be positive"),
        (["--power", "france"], "--power and --new go with --play"),
        (["--play", "--workers", "2"], "--play serves from one process"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["serve", *args])
    assert leaving.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
