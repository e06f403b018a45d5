#!/usr/bin/python3
"""Every source of the core (collision/, dynamics/, engine/) has a test of the same stem
(tests/**/test_<stem>.cpp or .py), or tests/README.md names it with the tests that cover it.
Prints the sources that have neither and exits 1 when there are any (a ctest runs it)."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    tests = {p.stem for p in (ROOT / "tests").rglob("test_*") if p.suffix in (".cpp", ".py")}
    readme = (ROOT / "tests" / "README.md").read_text()
    missing = []
    for folder in ("collision", "dynamics", "engine"):
        for source in sorted((ROOT / folder).rglob("*.cpp")):
            relative = source.relative_to(ROOT).as_posix()
            if f"test_{source.stem}" not in tests and f"`{relative}`" not in readme:
                missing.append(relative)
    for m in missing:
        print(f"{m}: no tests/**/test_{pathlib.Path(m).stem}.cpp and no line in tests/README.md")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
