"""A pytest plugin: tdconform's conformance cases as pytest tests (issue 29 item 4).

    pytest -p pytest_tdconform --tdconform-backend=MODULE:ATTR
           [--tdconform-engine reference|torch] [--tdconform-expectations FILE]
           [--tdconform-filter GLOB ...] [--tdconform-exclude GLOB ...] [--tdconform-jobs N]
           [--tdconform-strict] [--tdconform-out DIR] [--tdconform-bin PATH]
           [--tdconform-root DIR]

with this folder (conformance/python) on PYTHONPATH. MODULE:ATTR is a torch.compile backend
callable, as `tdconform --backend py:MODULE:ATTR` takes it. Each case id of the suite is one
pytest test named by it, so `-k` selects among them and pytest's own `--junitxml` reports
them. The tests pytest keeps run in one tdconform call before the first test (each case in a
process of its own: tdconform's isolation), and its JSON report (tdconform-report/1) gives
each test its verdict:

  PASS            passes
  XFAIL, XPASS    an expectation file's entry matched: xfailed, or xpassed (a failure with
                  --tdconform-strict, as tdconform --strict fails the run)
  NOT_SUPPORTED   skipped with its phase, reason and message (never a pass)
  SKIPPED         skipped (tdconform's --max-timeouts stopped running cases)
  anything else   fails with tdconform's verdict line, message and repro command

`--tdconform-engine torch` runs the cases under real torch.compile (tdconform --engine torch:
ids torch:<group>:<name>:profile=<p>). The plugin is active only when --tdconform-backend is
given.
"""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINES = ("reference", "torch")
SKIPPING = {"NOT_SUPPORTED", "SKIPPED"}
EXPECTED = {"XFAIL", "XPASS"}


def pytest_addoption(parser):
    group = parser.getgroup("tdconform", "tdconform conformance cases")
    group.addoption("--tdconform-backend", metavar="MODULE:ATTR",
                    help="the torch.compile backend callable under test")
    group.addoption("--tdconform-engine", choices=ENGINES, default="reference",
                    help="what runs each case's program (only 'reference' exists yet)")
    group.addoption("--tdconform-expectations", metavar="FILE",
                    help="the failures accepted for now (tdconform --expectations)")
    group.addoption("--tdconform-filter", action="append", default=[], metavar="GLOB",
                    help="only the case ids matching this glob (repeatable)")
    group.addoption("--tdconform-exclude", action="append", default=[], metavar="GLOB",
                    help="leave out the case ids matching this glob (repeatable)")
    group.addoption("--tdconform-jobs", type=int, default=1, metavar="N",
                    help="cases run at a time")
    group.addoption("--tdconform-strict", action="store_true",
                    help="an XPASS fails")
    group.addoption("--tdconform-out", metavar="DIR",
                    help="where failure folders go (default: tdconform-out in pytest's rootdir)")
    group.addoption("--tdconform-bin", metavar="PATH",
                    help="the tdconform executable (default: $TDCONFORM_BIN, the checkout's "
                         "build/bin/tdconform, then tdconform on PATH)")
    group.addoption("--tdconform-root", metavar="DIR",
                    help="the checkout the suite's fixtures are in (default: $TDCONFORM_ROOT, "
                         "or the one holding this plugin)")


def _executable(config):
    given = config.getoption("tdconform_bin") or os.environ.get("TDCONFORM_BIN")
    if given:
        return given
    built = _root(config) / "build" / "bin" / "tdconform"
    if built.is_file():
        return str(built)
    found = shutil.which("tdconform")
    if found is None:
        raise pytest.UsageError("tdconform: no executable (give --tdconform-bin)")
    return found


def _root(config):
    given = config.getoption("tdconform_root") or os.environ.get("TDCONFORM_ROOT")
    return pathlib.Path(given) if given else ROOT


def _selection(config):
    args = ["--engine", config.getoption("tdconform_engine")]
    for glob in config.getoption("tdconform_filter"):
        args += ["--filter", glob]
    for glob in config.getoption("tdconform_exclude"):
        args += ["--exclude", glob]
    return args


def _tdconform(config, args):
    # The backend's module is imported by tdconform's embedded CPython: from the project
    # pytest runs in as well as from PYTHONPATH.
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(config.rootpath), env.get("PYTHONPATH", "")) if p)
    return subprocess.run([_executable(config), *args], cwd=_root(config), env=env,
                          capture_output=True, text=True)


def pytest_configure(config):
    if not config.getoption("tdconform_backend"):
        return
    if config.getoption("tdconform_jobs") < 1:
        raise pytest.UsageError("--tdconform-jobs: at least 1")
    config.pluginmanager.register(TdconformSession(config), "tdconform-session")


class TdconformFailure(Exception):
    """A case's verdict other than a pass, an expected one or a skip."""


class TdconformSuite(pytest.Collector):
    """The parent of the cases (node ids `tdconform::<case id>`); they are made by the
    session's collection hook, not collected from a file."""

    def collect(self):
        return []


class TdconformCase(pytest.Item):
    """One case id; its verdict comes from the session's tdconform run."""

    def __init__(self, *, verdicts, **kwargs):
        super().__init__(**kwargs)
        self.verdicts = verdicts

    def runtest(self):
        verdict = self.verdicts.get(self.name)
        if verdict is None:
            raise TdconformFailure(self.verdicts.missing_reason(self.name))
        status = verdict["status"]
        if status in ("PASS", "XPASS"):
            return
        if status in SKIPPING:
            pytest.skip(f"{status} {_where(verdict)}: {verdict['message']}")
        raise TdconformFailure(_describe(verdict))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, TdconformFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, ""  # the node id names it; a case id's dots are no path


def _where(verdict):
    return f"{verdict['phase']}/{verdict['reason']}" if verdict["phase"] else verdict["reason"]


def _describe(verdict):
    text = f"{verdict['id']}: {verdict['status']} {_where(verdict)}: {verdict['message']}"
    if verdict.get("repro"):
        text += f"\nrepro: {verdict['repro']}"
    return text


class Verdicts(dict):
    """The cases' verdicts by id, and why one has none (the run did not finish)."""

    def __init__(self):
        super().__init__()
        self.failure = "tdconform has not run"

    def missing_reason(self, case_id):
        return f"{case_id}: no verdict: {self.failure}"


class TdconformSession:
    def __init__(self, config):
        self.config = config
        self.verdicts = Verdicts()

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session, config, items):
        # Before -k deselects: the cases join the collected tests first.
        listed = _tdconform(config, ["--list", *_selection(config)])
        if listed.returncode != 0:
            raise pytest.UsageError(f"tdconform --list: {listed.stderr.strip()}")
        suite = TdconformSuite.from_parent(session, name="tdconform", nodeid="tdconform")
        cases = [TdconformCase.from_parent(suite, name=case_id, verdicts=self.verdicts)
                 for case_id in listed.stdout.split()]
        items.extend(cases)
        # Counted as collected, as a collector's report would have them.
        config.hook.pytest_collectreport(
            report=pytest.CollectReport(suite.nodeid, "passed", None, cases))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        cases = [item for item in session.items if isinstance(item, TdconformCase)]
        if not cases or session.config.option.collectonly:
            return
        with tempfile.TemporaryDirectory(prefix="tdconform-pytest-") as scratch:
            self._run(cases, pathlib.Path(scratch))
        strict = self.config.getoption("tdconform_strict")
        for item in cases:
            verdict = self.verdicts.get(item.name)
            if verdict is not None and verdict["status"] in EXPECTED:
                item.add_marker(pytest.mark.xfail(reason=verdict["message"], strict=strict,
                                                  raises=TdconformFailure))

    def _out(self):
        given = self.config.getoption("tdconform_out")
        return pathlib.Path(given).resolve() if given else self.config.rootpath / "tdconform-out"

    def _run(self, cases, scratch):
        caselist = scratch / "cases.txt"
        caselist.write_text("".join(item.name + "\n" for item in cases), encoding="utf-8")
        report = scratch / "report.json"
        config = self.config
        args = ["--backend", "py:" + config.getoption("tdconform_backend"),
                "--engine", config.getoption("tdconform_engine"),
                "--caselist", str(caselist), "--json", str(report),
                "--jobs", str(config.getoption("tdconform_jobs")),
                "--out", str(self._out())]
        if config.getoption("tdconform_expectations"):
            args += ["--expectations",
                     str(pathlib.Path(config.getoption("tdconform_expectations")).resolve())]
        done = _tdconform(config, args)
        try:
            parsed = json.loads(report.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            self.verdicts.failure = (f"tdconform wrote no report ({error}); exit status "
                                     f"{done.returncode}: {done.stderr.strip()}")
            return
        if parsed["state"] != "complete":
            self.verdicts.failure = f"tdconform's run is {parsed['state']}: {parsed['detail']}"
        for verdict in parsed["cases"]:
            self.verdicts[verdict["id"]] = verdict
