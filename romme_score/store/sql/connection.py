"""What the SQL store asks of a backend's connection (a type only: the modules that use it
import it for their annotations, so that no Protocol class is built at start-up)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from romme_score.store.sql.dialect import Cursor, Params

T = TypeVar("T")


class Connection(Protocol):
    """One open database, as the SQL store uses it."""

    location: str  # as said to a person
    locked: set[int]  # the sessions the held transaction has locked (emptied as it ends)

    @property
    def holding(self) -> bool:
        """Whether a :meth:`held` block is open (its transaction)."""
        ...

    def transact(self, work: Callable[[Cursor], T]) -> T:
        """``work(cursor)`` as one transaction: all of its writes or none; the database's
        errors as the store's."""
        ...

    def held(self) -> AbstractContextManager[None]:
        """The block's reads and writes as one transaction (a :meth:`transact` inside it is
        part of it): committed as the block ends, rolled back whole on an error."""
        ...

    def query(self, sql: str, params: Params = ()) -> list[Any]: ...

    def reading(self) -> AbstractContextManager[None]:
        """Every read of the block (queries and :meth:`batches` alike) from one snapshot of
        the database, taken as the block begins; inside a transaction already, part of it."""
        ...

    def batches(self, sql: str, params: Params, size: int) -> Iterator[list[Any]]:
        """The rows of a long read, ``size`` at a time, in constant memory (inside
        :meth:`reading`, from its snapshot)."""
        ...

    def changes(self) -> set[int] | None:
        """The sessions another connection changed since the last call (None: any may
        have; an empty set: none)."""
        ...

    def close(self) -> None: ...
