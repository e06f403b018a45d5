"""Shared set-up of the Python module's tests: the built module on PYTHONPATH (ctest sets it),
the heavyball command line in $HEAVYBALL_CLI, the source tree in $HEAVYBALL_DATA."""

import os
import pathlib

import pytest


@pytest.fixture(scope="session")
def source_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("HEAVYBALL_DATA", pathlib.Path(__file__).parents[2]))


@pytest.fixture(scope="session")
def cli() -> str:
    path = os.environ.get("HEAVYBALL_CLI")
    if not path:
        pytest.skip("HEAVYBALL_CLI is not set (ctest sets it)")
    return path
