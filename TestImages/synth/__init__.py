"""The recipes of synthesize.py: writers of test files for formats that no encoder installed
here can produce, one module per ImageSniff detector family (Sources/ImageSniff/Families/*.swift,
CameraRaw.swift -> camera_raw.py), so that a format's recipe sits beside the other recipes of
its family.  common.py holds the shared byte helpers (write, read, box, fullbox, IFF and RIFF
chunks), tiff.py the TIFF builder.

Each family module ends with RECIPES, a dict from subcommand name to writer; a writer is called
as writer(OUT, *ARGS) with the command line's strings (make-test-images.sh runs
`python3 synthesize.py KIND OUT [ARGS...]`).  recipes() gathers every module's RECIPES: adding a
recipe is one function and one RECIPES entry in its family's module (a new family: a new module
with its own RECIPES), plus the `synth` line in make-test-images.sh.
"""
import importlib
import pkgutil


def recipes():
    """Subcommand name -> writer, from the RECIPES of every module of the package."""
    table = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(__name__ + '.' + info.name)
        for kind, writer in getattr(module, 'RECIPES', {}).items():
            if kind in table:
                raise SystemExit('synth: recipe %r is declared twice (%s.py and %s)'
                                 % (kind, info.name, table[kind].__module__))
            table[kind] = writer
    return table
