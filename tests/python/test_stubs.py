"""The type stubs (apps/python/heavyball.pyi) name every public function, class, method and
property of the module, and nothing it lacks, so that editors and type checkers see the module
as it is."""

import ast

import heavyball

ALIASES = {"Vector", "Rows"}  # the stubs' own type aliases


def stub_names(source_dir):
    tree = ast.parse((source_dir / "apps" / "python" / "heavyball.pyi").read_text())
    functions, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            functions.add(node.name)
        elif isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
            classes[node.name] = members
    return functions, classes


def public(obj):
    return {name for name in dir(obj) if not name.startswith("_")}


def test_the_stubs_name_what_the_module_has(source_dir):
    functions, classes = stub_names(source_dir)
    module = public(heavyball)
    # A build without offscreen rendering has no Renderer: the stubs describe the full module.
    optional = {"Renderer", "OffscreenRenderingError"}
    assert module - optional <= functions | set(classes)
    assert (functions | set(classes)) - optional <= module
    for name, members in classes.items():
        if name in optional and not hasattr(heavyball, name):
            continue
        cls = getattr(heavyball, name)
        if issubclass(cls, Exception):
            continue
        assert members == public(cls), name
