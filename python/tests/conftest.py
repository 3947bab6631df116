import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def examples() -> pathlib.Path:
    return ROOT / "examples"


@pytest.fixture(autouse=True, scope="session")
def _kernel_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    # Compiles are cached on disk (PHOBOS_CACHE_DIR): the tests' cache is their own.
    import os

    os.environ["PHOBOS_CACHE_DIR"] = str(tmp_path_factory.mktemp("kernel-cache"))
