"""Asserting an error by its code (and params), never by its English message."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest

from unomas.errors import UnoError

_E = TypeVar("_E", bound=UnoError)


@contextmanager
def raises_code(kind: type[_E], code: str, **params: Any) -> Iterator[pytest.ExceptionInfo[_E]]:
    """Like ``pytest.raises(kind)``, and the error raised has ``code`` and (among its params) ``params``."""
    with pytest.raises(kind) as caught:
        yield caught
    assert caught.value.code == code, (caught.value.code, caught.value.params)
    assert params.items() <= caught.value.params.items(), caught.value.params
