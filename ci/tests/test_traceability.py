"""ci/traceability.py on small spec texts: what it extracts, and that each kind of gap is
reported (a test of the check the `traceability` ctest runs on the real spec)."""

import unittest

from ci import traceability as tr

SPEC = """## 1. Model
* not in §2
## 2. API reference
### 2.1 `disable`
* First bullet about disable.
  continued line
* Second bullet.
### 2.2 `graph_break`
- Only bullet.
## 3. Counting
* not in §2 either
## 4. Scenario catalogue
**S1** `test_a`
**S2** `test_b`
**S50** `test_c`
"""

SCENARIO_MAP = """| scenario | owner | note |
|---|---|---|
| S1 a thing | Dynamo core A | |
| S2 another | excluded: needs-classes (why) | |
| S50a, S50b messages | Dynamo core A | |
"""


def fixture(rules=(), scenarios=()):
    return tr.Fixture("fixtures/g/f.py", set(rules), set(scenarios), ["torch-2.13"])


class TraceabilityTest(unittest.TestCase):

    def setUp(self):
        mock_rules = ["R-graph-break-call", "R-disabled-call-break"]
        original = tr.rule_labels
        tr.rule_labels = lambda: mock_rules
        self.addCleanup(setattr, tr, "rule_labels", original)

    def table(self, **overrides):
        entries = {
            "2.1.1": {"begins": "First bullet", "rules": ["R-disabled-call-break"]},
            "2.1.2": {"begins": "Second", "excluded": "needs-classes", "why": "w"},
            "2.2.1": {"begins": "Only", "rules": ["R-graph-break-call"]},
        }
        entries.update(overrides)
        return {"bullet": {k: v for k, v in entries.items() if v is not None}}

    def fixtures(self):
        return [fixture(["R-disabled-call-break", "R-graph-break-call"], ["S1", "S50a", "S50b"])]

    def run_check(self, table=None, fixtures=None):
        return tr.check(SPEC, table or self.table(), fixtures or self.fixtures(), tr.scenario_map(SCENARIO_MAP))

    def test_extracts_the_section_2_bullets_and_section_4_labels(self):
        self.assertEqual([(b.key, b.text) for b in tr.spec_bullets(SPEC)],
                         [("2.1.1", "First bullet about disable."), ("2.1.2", "Second bullet."),
                          ("2.2.1", "Only bullet.")])
        self.assertEqual(tr.spec_scenarios(SPEC), ["S1", "S2", "S50"])

    def test_expands_scenario_map_labels(self):
        self.assertEqual(tr.expand_labels("S24–S26 nonstrict"), ["S24", "S25", "S26"])
        self.assertEqual(tr.expand_labels("S16, S17 disabled"), ["S16", "S17"])
        self.assertEqual(sorted(tr.scenario_map(SCENARIO_MAP)), ["S1", "S2", "S50a", "S50b"])

    def test_a_covered_spec_has_no_gap(self):
        self.assertEqual(self.run_check().gaps, [])

    def test_a_bullet_missing_from_the_table_is_a_gap(self):
        gaps = self.run_check(self.table(**{"2.2.1": None})).gaps
        self.assertEqual(gaps, ["spec §2.2.1: not in reference/traceability.toml ('Only bullet.')"])

    def test_a_changed_bullet_is_a_gap(self):
        gaps = self.run_check(self.table(**{"2.2.1": {"begins": "Old text", "rules": ["R-graph-break-call"]}})).gaps
        self.assertEqual(gaps, ["spec §2.2.1: the spec's bullet changed; it now begins 'Only bullet.'"])

    def test_an_unknown_or_uncited_rule_is_a_gap(self):
        gaps = self.run_check(self.table(**{"2.2.1": {"begins": "Only", "rules": ["R-nope"]}})).gaps
        self.assertEqual(gaps, ["spec §2.2.1: R-nope is no rule of reference/dynamo/rules.def"])
        gaps = self.run_check(fixtures=[fixture(["R-disabled-call-break"], ["S1", "S50a", "S50b"])]).gaps
        self.assertEqual(gaps, ["spec §2.2.1: no compile-scope fixture cites R-graph-break-call"])

    def test_an_exclusion_outside_the_closed_list_is_a_gap(self):
        gaps = self.run_check(self.table(**{"2.1.2": {"begins": "Second", "excluded": "too-hard"}})).gaps
        self.assertEqual(gaps, ["spec §2.1.2: exclusion reason 'too-hard' is not in the scenario map's closed list"])

    def test_a_scenario_no_fixture_names_is_a_gap(self):
        gaps = self.run_check(fixtures=[fixture(["R-disabled-call-break", "R-graph-break-call"], ["S1", "S50a"])]).gaps
        self.assertEqual(gaps, ["spec S50b: no compile-scope fixture names it (`# tdc: scenarios S50b`)"])


if __name__ == "__main__":
    unittest.main()
