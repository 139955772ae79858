"""How a refusal of JSON input names what the writer wrote.

A refusal's params are plain JSON values (see :mod:`unomas.error_codes`); one that names
the type of a value names its JSON type, not a Python class.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["json_type"]


def json_type(value: object) -> str:
    """The JSON name of ``value``'s type (``null``, ``array``…): refusals of JSON input
    name what the writer wrote, not a Python class.

    >>> json_type(None), json_type(True), json_type([1]), json_type(2.5)
    ('null', 'boolean', 'array', 'number')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__
