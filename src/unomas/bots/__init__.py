"""Bots: players that see only their own seat's view.

A bot is named by a spec: ``random``, ``playfirst``, ``heuristic``, ``ismcts``, ``learned``, with
options after colons (``ismcts:iterations=2000``, ``ismcts:seconds=0.5:exploration=0.9``),
``cmd:COMMAND`` for a program speaking the JSON-lines bot protocol (docs/bot-protocol.md),
or the name of a bot another package registers under the entry-point group
``unomas.bots`` (the entry point is a :class:`Bot` subclass).

>>> make_bot("ismcts:iterations=50").iterations
50
>>> make_bot("nobody")
Traceback (most recent call last):
...
unomas.errors.SettingsError: unknown bot 'nobody' (bots are random, playfirst, heuristic, ismcts, learned, cmd:COMMAND)
"""

from __future__ import annotations

import inspect
import typing
from typing import TYPE_CHECKING, Any

from unomas.errors import SettingsError

if TYPE_CHECKING:
    from unomas.bots.base import Bot
    from unomas.bots.basic import PlayFirstBot, RandomBot
    from unomas.bots.heuristic import HeuristicBot
    from unomas.bots.ismcts import IsmctsBot
    from unomas.bots.learned import LearnedBot

    BUILTIN_BOTS: dict[str, type[Bot]]

__all__ = [
    "BUILTIN_BOTS",
    "Bot",
    "HeuristicBot",
    "IsmctsBot",
    "LearnedBot",
    "PlayFirstBot",
    "RandomBot",
    "bot_names",
    "make_bot",
]

ENTRY_POINT_GROUP = "unomas.bots"


def _builtin_bots() -> dict[str, type[Bot]]:
    """The built-in bots by name (``BUILTIN_BOTS``), their classes loaded with the first
    asked for: self-play reads only :mod:`unomas.bots.policies`, and loads none of them."""
    loaded: dict[str, type[Bot]] | None = globals().get("BUILTIN_BOTS")
    return loaded if loaded is not None else _load()["BUILTIN_BOTS"]


def _load() -> dict[str, Any]:
    """The package's names with the bots' classes and ``BUILTIN_BOTS`` among them (one
    made already is kept, with whatever was added to it)."""
    from unomas.bots.base import Bot
    from unomas.bots.basic import PlayFirstBot, RandomBot
    from unomas.bots.heuristic import HeuristicBot
    from unomas.bots.ismcts import IsmctsBot
    from unomas.bots.learned import LearnedBot

    names = globals()
    classes = {
        "random": RandomBot,
        "playfirst": PlayFirstBot,
        "heuristic": HeuristicBot,
        "ismcts": IsmctsBot,
        "learned": LearnedBot,
    }
    names.update(Bot=Bot, **{cls.__name__: cls for cls in classes.values()})
    names.setdefault("BUILTIN_BOTS", classes)
    return names


def __getattr__(name: str) -> Any:
    """``BUILTIN_BOTS`` and the bots' classes, loaded when first asked for."""
    if name not in __all__:
        raise AttributeError(f"module 'unomas.bots' has no attribute {name!r}")
    return _load()[name]


def bot_names() -> list[str]:
    """The names of every bot available: built in, then registered by entry point."""
    from importlib.metadata import entry_points  # read only when asked: 12 ms of start-up

    return list(_builtin_bots()) + sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))


def make_bot(spec: str) -> Bot:
    """A new bot from a spec (see the module's documentation); bad specs raise SettingsError."""
    if spec.startswith("cmd:"):
        from unomas.bots.process import ProcessBot

        return ProcessBot.from_spec(spec[len("cmd:") :])
    name, *options = spec.split(":")
    cls = _builtin_bots().get(name) or _registered(name)
    if cls is None:
        raise SettingsError("setup.unknown_bot", name=repr(name), known=", ".join([*bot_names(), "cmd:COMMAND"]))
    return cls(**_options(cls, name, options))


def _registered(name: str) -> type[Bot] | None:
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINT_GROUP, name=name):
        loaded = entry.load()
        if not (isinstance(loaded, type) and issubclass(loaded, Bot)):
            raise SettingsError("setup.not_a_bot", name=repr(name))
        return loaded
    return None


def _options(cls: type[Bot], name: str, options: list[str]) -> dict[str, object]:
    """Keyword arguments for ``cls`` from ``NAME=VALUE`` strings, typed by its constructor."""
    parameters = inspect.signature(cls.__init__).parameters
    hints = typing.get_type_hints(cls.__init__)
    values: dict[str, object] = {}
    for option in options:
        key, sep, text = option.partition("=")
        if not sep or key not in parameters or key == "self":
            known = ", ".join(p for p in parameters if p != "self") or "none"
            raise SettingsError("setup.unknown_bot_option", name=repr(name), option=repr(option), known=known)
        kind = hints.get(key, str)
        try:
            if kind is bool or kind == bool | None:
                if text.lower() not in ("true", "false"):
                    raise ValueError
                values[key] = text.lower() == "true"
            elif kind is int or kind == int | None:
                values[key] = int(text)
            elif kind is float or kind == float | None:
                values[key] = float(text)
            else:
                values[key] = text
        except ValueError:
            type_name = str(getattr(kind, "__name__", kind))
            raise SettingsError(
                "setup.bad_bot_option", name=repr(name), option=key, type=type_name, value=repr(text)
            ) from None
    return values
