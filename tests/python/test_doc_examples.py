"""The examples of README.md and docs/*.md that are marked runnable (an HTML comment
`<!-- runnable -->` on the line before the fenced block), Python and shell, run as written, so
that a documented call or command that stops working fails the tests (images only where the
build has a Renderer). They run in a scratch folder that sees the source tree's assets/ and
docs/, so that what they write stays out of the tree; `build/release/apps/heavyball` in a shell
block is the command line under test."""

import os
import re
import subprocess
import sys

import pytest

import heavyball

MARK = "<!-- runnable -->"
BLOCK = re.compile(r"^" + re.escape(MARK) + r"\n```(python|sh)\n(.*?)^```", re.M | re.S)
CLI_PATH = "build/release/apps/heavyball"


def runnable_blocks(source_dir):
    pages = [source_dir / "README.md"] + sorted((source_dir / "docs").glob("*.md"))
    for page in pages:
        for number, match in enumerate(BLOCK.finditer(page.read_text()), start=1):
            yield page.name, number, match.group(1), match.group(2)


@pytest.fixture
def scratch(source_dir, tmp_path):
    for folder in ("assets", "docs"):
        (tmp_path / folder).symlink_to(source_dir / folder)
    return tmp_path


def test_the_docs_have_runnable_examples(source_dir):
    languages = {(page, language) for page, _, language, _ in runnable_blocks(source_dir)}
    assert {("python.md", "python"), ("query.md", "sh"), ("README.md", "sh"),
            ("README.md", "python")} <= languages


def test_the_readme_query_example_is_one_line_query_answers(source_dir, scratch, cli):
    # Pasted into a file as it stands, the README's JSON example is one problem line.
    blocks = re.findall(r"^```json\n(.*?)^```", (source_dir / "README.md").read_text(), re.M | re.S)
    assert len(blocks) == 1 and blocks[0].count("\n") == 1, blocks
    (scratch / "problem.jsonl").write_text(blocks[0])
    result = subprocess.run([cli, "query", "--input", "problem.jsonl"], cwd=scratch,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    answers = result.stdout.splitlines()
    assert len(answers) == 1 and '"collide"' in answers[0], result.stdout


def test_every_runnable_python_example_runs(source_dir, scratch):
    for page, number, language, code in runnable_blocks(source_dir):
        if language != "python":
            continue
        if "heavyball.Renderer" in code and not hasattr(heavyball, "Renderer"):
            continue  # a build without offscreen rendering
        result = subprocess.run([sys.executable, "-c", code], cwd=scratch, env=os.environ,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{page}, runnable block {number}:\n{result.stderr}"


def test_every_runnable_shell_example_runs(source_dir, scratch, cli):
    for page, number, language, code in runnable_blocks(source_dir):
        if language != "sh":
            continue
        script = "set -euo pipefail\n" + code.replace(CLI_PATH, cli)
        result = subprocess.run(["bash", "-c", script], cwd=scratch, env=os.environ,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{page}, runnable block {number}:\n{result.stderr}"
