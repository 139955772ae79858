"""Build hook: compile the engine's hot modules with mypyc, from the same Python source.

The compiled engine plays the same game several times faster. An editable install
(``pip install -e .``, for development: edits take effect at once, and the tests measure
coverage) stays pure Python, and so does any build with ``UNOMAS_PURE=1``; a machine
without a C compiler falls back to pure Python too, since the extensions are optional.
"""

import os
import sys

from setuptools import Extension, setup

COMPILED = [
    "cards",
    "actions",
    "events",
    "game",
    "view",
    "conductor",
    "bots/player",
    "bots/policies",
    "bots/search",
    "runs/selfplay",
    "rl/actions",
    "rl/writer",
    "rl/driver",
    "rl/agents",
    "rl/batch_core",
]


def engine_extensions() -> list[Extension]:
    if os.environ.get("UNOMAS_PURE", "0") not in ("", "0") or "editable_wheel" in sys.argv:
        return []
    from mypyc.build import mypycify

    # Modules outside the list are only read for their types, errors silenced: a build has
    # none of the optional libraries that unomas.rl (around its compiled modules) imports.
    paths = [f"src/unomas/{name}.py" for name in COMPILED]
    extensions: list[Extension] = mypycify([*paths, "--follow-imports=silent"], opt_level="3")
    for extension in extensions:
        extension.optional = True
    return extensions


setup(ext_modules=engine_extensions())
