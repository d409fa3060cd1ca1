"""Enums that keep values this version of the client does not know yet."""
from __future__ import annotations

from enum import Enum
from typing import Any


class OpenEnum(str, Enum):
    """A str enum whose constructor accepts any string.

    The service may add a status or a carrier tomorrow; ``ShipmentStatus("teleported")`` gives a
    member whose ``value`` is ``"teleported"`` (and ``is_known()`` False) instead of raising, and
    responses carry plain strings anyway, so nothing breaks on a new value.
    """

    @classmethod
    def _missing_(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return None
        member = str.__new__(cls, value)
        member._name_ = value.upper()
        member._value_ = value
        return member

    def is_known(self) -> bool:
        return self._name_ in type(self).__members__

    def __str__(self) -> str:
        return str(self.value)
