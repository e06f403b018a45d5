"""The Python examples of docs/*.md that are marked runnable (an HTML comment `<!-- runnable -->`
on the line before the fenced block) run as written, from the source tree, so that a documented
call that stops working fails the tests (images only where the build has a Renderer)."""

import os
import re
import subprocess
import sys

import pytest

import heavyball

MARK = "<!-- runnable -->"
BLOCK = re.compile(r"^" + re.escape(MARK) + r"\n```python\n(.*?)^```", re.M | re.S)


def runnable_blocks(source_dir):
    for page in sorted((source_dir / "docs").glob("*.md")):
        for number, match in enumerate(BLOCK.finditer(page.read_text()), start=1):
            yield page.name, number, match.group(1)


def test_the_docs_have_runnable_examples(source_dir):
    assert any(page == "python.md" for page, _, _ in runnable_blocks(source_dir))


def test_every_runnable_example_runs(source_dir):
    for page, number, code in runnable_blocks(source_dir):
        if "heavyball.Renderer" in code and not hasattr(heavyball, "Renderer"):
            continue  # a build without offscreen rendering
        result = subprocess.run([sys.executable, "-c", code], cwd=source_dir, env=os.environ,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{page}, runnable block {number}:\n{result.stderr}"
