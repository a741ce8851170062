"""Runs every probe program of id_reuse_probe.py through the reference (`tdref run`) and
checks each `out_*` boolean against the model column of SEMANTICS.md §6.3: the rules I1-I11
must come out of the interpreter as they come out of the heap alone (SEMANTICS §6.2 I11).

Usage: id_reuse_model_test.py TDREF
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import id_reuse_probe  # noqa: E402  (the probe programs and the model's predictions)


def main(tdref: str) -> int:
    checked = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (_, predicted, source) in id_reuse_probe.CASES.items():
            path = os.path.join(tmp, name + ".py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(source)
            run = subprocess.run([tdref, "run", path, "--json"], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{name}: tdref failed: {run.stderr.strip()}")
                failed += len(predicted)
                checked += len(predicted)
                continue
            eager = json.loads(run.stdout)["eager"]
            for out, want in predicted.items():
                checked += 1
                got = eager["outs"].get(out, {}).get("bool")
                if got != want:
                    failed += 1
                    print(f"{name}: {out} is {got}, the model says {want}"
                          f" (exception: {eager['exception']})")
    print(f"{checked - failed} passed, {failed} failed")
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
