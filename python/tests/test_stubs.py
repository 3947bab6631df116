"""The type stubs name every public function and class, of the package and of its native module."""

import inspect
import pathlib
import re

import phobos
from phobos import _phobos


def names_in(stub: pathlib.Path) -> set:
    text = stub.read_text()
    names = set(re.findall(r"^\s*(?:def|class)\s+(\w+)", text, re.M)) | set(re.findall(r"^(\w+)\s*[:=]", text, re.M))
    return names | set(re.findall(r"^from \. import (\w+) as \1$", text, re.M))


def test_package_stub_covers_the_public_api():
    here = pathlib.Path(phobos.__file__).parent
    stubbed = names_in(here / "__init__.pyi")
    assert set(phobos.__all__) <= stubbed, set(phobos.__all__) - stubbed
    for name in phobos.__all__:
        obj = getattr(phobos, name)
        if inspect.isclass(obj):
            public = {m for m in vars(obj) if not m.startswith("_") and callable(getattr(obj, m))}
            assert public <= stubbed, (name, public - stubbed)
    assert (here / "py.typed").exists()


def test_native_stub_covers_the_native_module():
    stubbed = names_in(pathlib.Path(phobos.__file__).parent / "_phobos.pyi")
    public = {n for n in dir(_phobos) if not n.startswith("_")}
    assert public <= stubbed, public - stubbed
    methods = {n for n in dir(_phobos.Program) if not n.startswith("_")}
    assert methods <= stubbed, methods - stubbed
